import pg from 'pg';
import { MerchantCache } from '../../src/merchants/merchant-cache.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { clientAccepted } from '../support/client-accepted.js';

async function until(what: string, probe: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Merchants are kept in memory by each instance (merchant-cache.ts); a change made through one instance must hold on
 * every other at once, and an instance that lost its change notifications must not answer from memory meanwhile.
 */
describeWithPostgres('merchant cache across instances (one PostgreSQL)', () => {
  let a: TestApp;
  let b: TestApp;
  let m: { client_id: string; client_secret: string };

  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ sameDatabaseAs: a });
    m = await adminClient(a.baseUrl, a.adminToken).createMerchant({ name: 'Cached shop', redirect_uris: [REDIRECT_URI] });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('reads no merchant row from the database for a whole login and client authentication once it is in memory', async () => {
    const config = await discover(`${b.baseUrl}/oidc`, m.client_id, m.client_secret);
    const warm = await authorizationRequest(config);
    await loginWithTestEid(b.baseUrl, warm.url);
    const merchantReads: string[] = [];
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    const spy = function (this: pg.Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
      if (text && /FROM "merchants"/.test(text)) merchantReads.push(text);
      return query.apply(this, args);
    };
    pg.Client.prototype.query = spy as typeof pg.Client.prototype.query;
    try {
      const req = await authorizationRequest(config);
      const { callback } = await loginWithTestEid(b.baseUrl, req.url);
      expect(await clientAccepted(b, m.client_id, m.client_secret)).toBe(true);
      expect(callback.searchParams.get('code')).toBeTruthy();
    } finally {
      pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
    }
    expect(merchantReads).toEqual([]);
  }, 60_000);

  it('refuses a merchant disabled through the other instance at once, and accepts it again when enabled', async () => {
    const admin = adminClient(a.baseUrl, a.adminToken);
    expect(await clientAccepted(b, m.client_id, m.client_secret)).toBe(true);
    expect((await admin.call('POST', `/admin/v1/merchants/${m.client_id}/disable`)).status).toBe(200);
    await until('b refuses the disabled merchant', async () => !(await clientAccepted(b, m.client_id, m.client_secret)), 2000);
    expect((await admin.call('POST', `/admin/v1/merchants/${m.client_id}/enable`)).status).toBe(200);
    await until('b accepts it again', () => clientAccepted(b, m.client_id, m.client_secret), 2000);
  }, 30_000);

  it('takes a rotated secret on the other instance at once: the old one refused, the new one accepted', async () => {
    expect(await clientAccepted(b, m.client_id, m.client_secret)).toBe(true);
    const rotated = await adminClient(a.baseUrl, a.adminToken).call('POST', `/admin/v1/merchants/${m.client_id}/secret`);
    expect(rotated.status).toBe(200);
    await until('b refuses the old secret', async () => !(await clientAccepted(b, m.client_id, m.client_secret)), 2000);
    expect(await clientAccepted(b, m.client_id, rotated.body.client_secret)).toBe(true);
    m = { ...m, client_secret: rotated.body.client_secret };
  }, 30_000);

  it('serves nothing from memory while its notification connection is down, and listens again by itself', async () => {
    const cache = b.app.get(MerchantCache);
    expect(cache.isListening).toBe(true);
    expect(await clientAccepted(b, m.client_id, m.client_secret)).toBe(true); // cached on b
    // The server ends b's LISTEN session (as a database restart or a network cut would).
    const [{ terminated }] = await a.dataSource.query(
      "SELECT count(pg_terminate_backend(pid))::int AS terminated FROM pg_stat_activity WHERE application_name = 'broker-merchant-cache' AND datname = current_database()",
    );
    expect(terminated).toBeGreaterThanOrEqual(1);
    await until('b notices it is deaf', () => !cache.isListening, 2000);
    // A change while b is deaf (its notification is lost) must still hold on b at once: b does not use its memory.
    expect((await adminClient(a.baseUrl, a.adminToken).call('POST', `/admin/v1/merchants/${m.client_id}/disable`)).status).toBe(200);
    expect(await clientAccepted(b, m.client_id, m.client_secret)).toBe(false);
    await until('b listens again', () => cache.isListening, 5000);
    expect((await adminClient(a.baseUrl, a.adminToken).call('POST', `/admin/v1/merchants/${m.client_id}/enable`)).status).toBe(200);
    await until('b accepts it again', () => clientAccepted(b, m.client_id, m.client_secret), 2000);
  }, 30_000);
});
