import * as client from 'openid-client';
import { REDIS, type RedisHandle } from '../../src/redis/redis.module.js';
import { OIDC_ROUTES } from '../../src/oidc/provider/routes.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { type Page, TestBrowser } from '../support/test-browser.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/**
 * Issue 15, point 6: Redis (a private server of this test's own) killed under a login in progress. While it
 * is down every request that needs it gets a clear temporarily_unavailable at once (a page, a redirect to
 * the merchant, a JSON error; never a 500, never a wait) and writes nothing; once Redis is back on the same
 * address the service uses it again by itself and a new login completes.
 */
describe('Redis lost and restarted under the service', () => {
  let redis: PrivateRedis;
  let t: TestApp;
  let merchant: { client_id: string; client_secret: string };
  let config: client.Configuration;

  const connection = () => t.app.get<symbol, RedisHandle>(REDIS, { strict: false })!;
  async function until(condition: () => boolean, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const rows = async () =>
    (await t.dataSource.query(
      `SELECT (SELECT count(*) FROM oidc_payloads)::int AS payloads, (SELECT count(*) FROM brokered_logins)::int AS logins`,
    )) as unknown[];

  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await startTestApp({ env: { REDIS_URL: redis.url } });
    await until(() => connection().status === 'ready', 5000);
    merchant = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Fault shop', redirect_uris: [REDIRECT_URI] });
    config = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
  });
  afterAll(async () => {
    await t?.close();
    await redis?.kill();
  });

  it('fails a login in progress cleanly while Redis is down, writes nothing, and recovers by itself', async () => {
    // A login up to the test eID's page.
    const request = await authorizationRequest(config);
    const browser = new TestBrowser(t.baseUrl);
    let page: Page = await browser.follow(await browser.get(request.url.toString()));
    if (page.html.includes('data-eid="test"')) page = await browser.submit(page, 'eid', 'test');
    expect(page.html).toContain('data-person=');
    const before = await rows();

    await redis.kill();
    await until(() => connection().status !== 'ready', 5000);

    // The broker page: the translated error page, 503, at once.
    let started = Date.now();
    const failed = await browser.submit(page, 'person', 'uto-passport');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(failed.status).toBe(503);
    expect(failed.html).toContain('data-error="temporarily_unavailable"');
    expect(failed.html).not.toMatch(/server_error|at \S+ \(|Error:/);
    expect(failed.html).toContain('<html');

    // A new authorization request: the merchant is told, as OAuth says, with temporarily_unavailable.
    started = Date.now();
    const fresh = await new TestBrowser(t.baseUrl).get((await authorizationRequest(config)).url.toString());
    expect(Date.now() - started).toBeLessThan(3000);
    const told = new URL(fresh.location ?? 'about:blank');
    expect(`${told.origin}${told.pathname}`).toBe(REDIRECT_URI);
    expect(told.searchParams.get('error')).toBe('temporarily_unavailable');

    // The token endpoint: a JSON error, 503.
    const token = await fetch(`${t.baseUrl}${OIDC_ROUTES.token}`, {
      method: 'POST',
      headers: { authorization: basic(merchant.client_id, merchant.client_secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x'.repeat(43), redirect_uri: REDIRECT_URI }),
    });
    expect(token.status).toBe(503);
    expect(await token.json()).toMatchObject({ error: 'temporarily_unavailable' });

    // Nothing of the failed step was written (no grant, no login).
    expect(await rows()).toEqual(before);
    // The instance says it cannot take traffic, and why.
    const readiness = async () => {
      const res = await fetch(`${t.baseUrl}/health/ready`);
      return { status: res.status, redis: ((await res.json()) as { checks: { redis: string } }).checks.redis };
    };
    expect(await readiness()).toEqual({ status: 503, redis: 'failed' });

    await redis.start();
    await until(() => connection().status === 'ready', 10_000);
    expect((await readiness()).redis).toBe('ok');

    // The login that was in progress is gone with the Redis that held it: a clear "expired" page.
    const old = await browser.submit(page, 'person', 'uto-passport');
    expect(old.status).toBe(400);
    expect(old.html).toContain('data-error="interaction_expired"');

    // A new login completes, and its code is redeemed.
    const next = await authorizationRequest(config);
    const { callback } = await loginWithTestEid(t.baseUrl, next.url);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: next.verifier,
      expectedState: next.state,
      expectedNonce: next.nonce,
    });
    expect(tokens.access_token).toBeDefined();
    expect((await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)).sub).toBe(tokens.claims()!.sub);
  });
});
