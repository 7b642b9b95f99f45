import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { openServiceDatabase } from '../../src/bootstrap/scheme-manifests.js';
import { HashedCredentials1700000000004 } from '../../src/database/migrations/1700000000004-hashed-credentials.js';
import { SERVICE_MIGRATIONS as MIGRATIONS } from '../../src/bootstrap/scheme-manifests.js';
import { TypeOrmAdapter } from '../../src/oidc/storage/typeorm-adapter.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase } from '../support/test-database.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** A database reader must not be able to use the tokens and codes it sees (they are bearer credentials). */
describe('tokens and codes at rest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('stores no access token, refresh token or code in clear, and they still work', async () => {
    const merchant = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI] });
    const config = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
    const req = await authorizationRequest(config, { scope: 'openid profile offline_access', prompt: 'consent' });
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    const code = callback.searchParams.get('code')!;
    const codeRows: { text: string }[] = await t.dataSource.query(`SELECT id || payload::text AS text FROM oidc_payloads`);
    expect(codeRows.some((r) => r.text.includes(code))).toBe(false);

    const res = await fetch(`${t.baseUrl}/oidc/token`, {
      method: 'POST',
      headers: { authorization: basic(merchant.client_id, merchant.client_secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: req.verifier }),
    });
    const tokens = (await res.json()) as { access_token: string; refresh_token: string };
    expect(res.status).toBe(200);
    const dump: { text: string }[] = await t.dataSource.query(`SELECT model || id || payload::text AS text FROM oidc_payloads`);
    const all = dump.map((r) => r.text).join('\n');
    for (const secret of [code, tokens.access_token, tokens.refresh_token]) expect(all.includes(secret)).toBe(false);
    expect(all).toContain('AccessToken');

    const userinfo = await fetch(`${t.baseUrl}/oidc/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(userinfo.status).toBe(200);
  });
});

describe('migration 1700000000004 (tokens stored before hashing)', () => {
  it('re-keys a clear access token row so that the adapter still finds it, and drops the clear jti', async () => {
    const database = await createTestDatabase();
    const handle = await openServiceDatabase(database.url ? { kind: 'postgres', url: database.url } : { kind: 'embedded', dir: 'memory://' });
    const index = MIGRATIONS.findIndex((m) => m === HashedCredentials1700000000004);
    const dataSource = new DataSource({ ...handle.options, migrations: MIGRATIONS.slice(0, index), migrationsRun: false } as never);
    await dataSource.initialize();
    try {
      await dataSource.runMigrations();
      const value = `${randomBytes(32).toString('base64url')}é`;
      const exp = Math.floor(Date.now() / 1000) + 600;
      await dataSource.query(
        `INSERT INTO oidc_payloads (model, id, payload, grant_id, expires_at) VALUES ('AccessToken', $1, $2, 'g1', now() + interval '10 minutes'),
           ('Session', 's1', '{"jti":"s1","kind":"Session"}', NULL, now() + interval '10 minutes')`,
        [value, JSON.stringify({ jti: value, kind: 'AccessToken', exp, grantId: 'g1' })],
      );
      const runner = dataSource.createQueryRunner();
      await new HashedCredentials1700000000004().up(runner);
      await runner.release();
      const rows: { id: string; payload: Record<string, unknown> }[] = await dataSource.query(
        `SELECT id, payload FROM oidc_payloads WHERE model = 'AccessToken'`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].id).not.toBe(value);
      expect(JSON.stringify(rows[0].payload)).not.toContain(value);
      const adapter = (model: string) => new TypeOrmAdapter(model, dataSource, { replayRetentionSeconds: 3600 });
      expect(await adapter('AccessToken').find(value)).toMatchObject({ jti: value, kind: 'AccessToken', grantId: 'g1' });
      expect(await adapter('Session').find('s1')).toMatchObject({ jti: 's1' });
    } finally {
      await dataSource.destroy();
      await handle.close();
      await database.drop();
    }
  });
});

describe('what PostgreSQL cannot store', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('refuses a payload with a NUL as invalid_request (400), stores nothing, and finds nothing for a NUL id', async () => {
    const adapter = new TypeOrmAdapter('Interaction', t.dataSource, { replayRetentionSeconds: 60 });
    const attempt = adapter.upsert('i1', { kind: 'Interaction', params: { state: 'a\u0000b' } } as never, 60);
    await expect(attempt).rejects.toMatchObject({ statusCode: 400, error: 'invalid_request' });
    expect(await adapter.find('i1')).toBeUndefined();
    expect(await adapter.find('i\u00001')).toBeUndefined();
    expect(await new TypeOrmAdapter('Session', t.dataSource, { replayRetentionSeconds: 60 }).findByUid('u\u0000')).toBeUndefined();
  });

  it('refuses a payload with a lone UTF-16 surrogate as invalid_request (400), stores nothing', async () => {
    const adapter = new TypeOrmAdapter('Interaction', t.dataSource, { replayRetentionSeconds: 60 });
    // One the edge cannot see (inside an encrypted request object) would otherwise fail the jsonb insert with a 500.
    const attempt = adapter.upsert('i2', { kind: 'Interaction', params: { claims: { userinfo: { given_name: { value: 'a\udfff' } } } } } as never, 60);
    await expect(attempt).rejects.toMatchObject({
      statusCode: 400,
      error: 'invalid_request',
      error_description: expect.stringContaining('lone UTF-16 surrogate'),
    });
    expect(await adapter.find('i2')).toBeUndefined();
  });
});
