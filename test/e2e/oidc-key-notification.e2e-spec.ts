import type { JSONWebKeySet } from 'jose';
import { SIGNING_KEYS_LISTENER_NAME, SigningKeyChanges } from '../../src/oidc/keys/signing-key-changes.js';
import { adminClient } from '../support/admin-client.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { recordQueries } from '../support/record-queries.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

async function until(what: string, probe: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const jwksOf = async (t: TestApp) => (await (await fetch(`${t.baseUrl}/oidc/jwks`)).json()) as JSONWebKeySet;
const kidsOf = async (t: TestApp) => (await jwksOf(t)).keys.map((k) => k.kid!);

/** Rotates through `t`'s admin API; the kids of the new keys. */
async function rotateAt(t: TestApp): Promise<string[]> {
  const before = await kidsOf(t);
  const res = await adminClient(t.baseUrl, t.adminToken).call('POST', '/admin/v1/signing-keys/rotate');
  expect(res.status).toBe(200);
  return (res.body as { kid: string }[]).map((k) => k.kid).filter((kid) => !before.includes(kid));
}

const publishes = (t: TestApp, kids: string[]) => async () => {
  const served = await kidsOf(t);
  return kids.every((kid) => served.includes(kid));
};

/**
 * Signing keys are served from memory (the JWKS reads nothing); a rotation on one instance reaches the others
 * through PostgreSQL's NOTIFY on `signing_keys_changed`, and a notification missed while an instance was not
 * listening is caught by its periodic check (KEY_RELOAD_SECONDS). Bounds here are the reload interval (plus a
 * margin for a loaded machine), never a latency.
 */
describeWithPostgres('signing keys from memory, with change notification (one PostgreSQL)', () => {
  // Long: no periodic check falls into the counted requests, so what B publishes early it heard.
  const LONG_RELOAD_SECONDS = 60;
  const SHORT_RELOAD_SECONDS = 2;
  const MARGIN_MS = 3000;
  let a: TestApp;
  let b: TestApp;
  let c: TestApp | undefined;

  beforeAll(async () => {
    a = await startTestApp({ env: { KEY_RELOAD_SECONDS: String(LONG_RELOAD_SECONDS) } });
    b = await startTestApp({ sameDatabaseAs: a });
  });
  afterAll(async () => {
    await c?.close();
    await b?.close();
    await a?.close();
  });

  it('serves a rotation on A from B within the interval, and answers B’s JWKS without reading the keys', async () => {
    expect(b.config.oidc.keyReloadSeconds).toBe(LONG_RELOAD_SECONDS);
    expect(b.app.get(SigningKeyChanges).isListening).toBe(true);
    const fresh = await rotateAt(a);
    expect(fresh).toHaveLength(2);
    await until('B publishes the keys rotated on A', publishes(b, fresh), LONG_RELOAD_SECONDS * 1000);

    const N = 50;
    const queries = await recordQueries(async () => {
      for (let i = 0; i < N; i++) expect(await kidsOf(b)).toEqual(expect.arrayContaining(fresh));
      for (let i = 0; i < N; i++) expect((await fetch(`${b.baseUrl}/oidc/.well-known/openid-configuration`)).status).toBe(200);
    });
    // 1.6 ms each before: every JWKS request read the keys' rows (the fingerprint) first.
    expect(queries.filter((q) => /\bsigning_keys\b/.test(q.text)).map((q) => q.text)).toEqual([]);
  }, 120_000);

  it('listens again after its connection is cut, and hears the next rotation', async () => {
    const changes = b.app.get(SigningKeyChanges);
    const [{ terminated }] = (await a.dataSource.query(
      'SELECT count(pg_terminate_backend(pid))::int AS terminated FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [SIGNING_KEYS_LISTENER_NAME],
    )) as { terminated: number }[];
    expect(terminated).toBeGreaterThanOrEqual(2); // A's and B's
    await until('B notices', () => !changes.isListening, 5000);
    await until('B listens again', () => changes.isListening, 10_000);
    const fresh = await rotateAt(a);
    await until('B publishes the keys rotated on A', publishes(b, fresh), LONG_RELOAD_SECONDS * 1000);
  }, 120_000);

  it('catches a missed notification with its periodic check', async () => {
    c = await startTestApp({ sameDatabaseAs: a, env: { KEY_RELOAD_SECONDS: String(SHORT_RELOAD_SECONDS) } });
    // C hears nothing from now on: only its periodic check can tell it of the rotation.
    const changes = c.app.get(SigningKeyChanges);
    await changes.onApplicationShutdown();
    expect(changes.isListening).toBe(false);
    const fresh = await rotateAt(a);
    await until('C publishes the keys rotated on A', publishes(c, fresh), SHORT_RELOAD_SECONDS * 1000 + MARGIN_MS);
  }, 120_000);
});
