import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, finishTestEidLogin, REDIRECT_URI } from '../support/oidc-flow.js';
import { postgresBinDir, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { describeWhen } from '../support/when-available.js';

const POSTGRES_SERVER = { available: Boolean(postgresBinDir()), missing: 'PostgreSQL server binaries not installed (initdb, pg_ctl)' };
const describeWithPostgres = (name: string, fn: () => void) => describeWhen(POSTGRES_SERVER, name, fn);

/**
 * Issue 15, point 6: the service on a PostgreSQL server of the test's own, which the test stops and restarts
 * under it. While the database is down, requests answer a clear error at once (no hang, no stack trace);
 * when it is back, the service recovers by itself and a login that was in progress finishes.
 */
describeWithPostgres('PostgreSQL stopped and restarted under a running service', () => {
  let pg: PrivatePostgres;
  let app: TestApp;
  let config: client.Configuration;

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    app = await startTestApp({ databaseServerUrl: pg.url });
    const merchant = await adminClient(app.baseUrl, app.adminToken).createMerchant({ name: 'Restart shop', redirect_uris: [REDIRECT_URI] });
    config = await discover(`${app.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
  }, 60_000);
  afterAll(async () => {
    await app?.close().catch(() => undefined);
    pg?.remove();
  });

  async function healthyWithin(ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const res = await fetch(`${app.baseUrl}/health`).catch(() => undefined);
      if (res?.status === 200) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  }

  it('answers clear errors while the database is down and finishes a login begun before the outage', async () => {
    const request = await authorizationRequest(config, { scope: 'openid profile' });
    const browser = new TestBrowser(app.baseUrl);
    let page = await browser.follow(await browser.get(request.url.toString()));
    if (page.html.includes('data-eid="test"')) page = await browser.submit(page, 'eid', 'test');
    expect(page.html).toContain('data-person=');

    pg.stop();
    const health = await fetch(`${app.baseUrl}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'unavailable', database: 'down' });
    // The engine's own endpoints: a JSON OAuth error, not a hang and not a stack trace.
    const token = await fetch(`${app.baseUrl}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT_URI, client_id: config.clientMetadata().client_id }),
    });
    expect(token.status).toBeGreaterThanOrEqual(500);
    const body = await token.text();
    expect(body).not.toMatch(/ECONNREFUSED|at .*\.js:\d+|QueryFailedError/);
    expect(JSON.parse(body)).toMatchObject({ error: expect.any(String) });

    pg.start();
    expect(await healthyWithin(10_000)).toBe(true);

    const tokens = await finishTestEidLogin(browser, page, config, request);
    expect(tokens.claims()?.sub).toEqual(expect.any(String));
  }, 60_000);

  it('recovers by itself from a restart that cuts every connection', async () => {
    pg.restart();
    expect(await healthyWithin(10_000)).toBe(true);
    const merchants = await adminClient(app.baseUrl, app.adminToken).call('GET', '/admin/v1/merchants');
    expect(merchants.status).toBe(200);
  }, 60_000);
});
