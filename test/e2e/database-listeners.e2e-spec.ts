import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { MerchantCache } from '../../src/merchants/merchant-cache.js';
import { SigningKeyChanges } from '../../src/oidc/keys/signing-key-changes.js';
import { adminClient } from '../support/admin-client.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { REDIRECT_URI } from '../support/oidc-flow.js';
import { recordQueries } from '../support/record-queries.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { clientAccepted } from '../support/client-accepted.js';

const METRICS_TOKEN = randomBytes(24).toString('base64url');
const LISTENERS = ['broker-merchant-cache', 'broker-signing-keys', 'broker-ciba-outbox'];
const HEARTBEAT_TIMEOUT_MS = 3_000;

async function until(what: string, probe: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `broker_db_listener_up` as `t` serves it on /metrics, by channel. */
async function listenersUp(t: TestApp): Promise<Record<string, number>> {
  const text = await (await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Object.fromEntries([...text.matchAll(/^broker_db_listener_up\{channel="(\w+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
}
const ALL_UP = { merchant_changed: 1, signing_keys_changed: 1, ciba_outbox_queued: 1 };

/** The server processes of the listening connections of every instance on this database. */
async function listenerBackends(t: TestApp): Promise<number[]> {
  const rows = (await t.dataSource.query('SELECT pid FROM pg_stat_activity WHERE application_name = ANY($1) AND datname = current_database() ORDER BY pid', [
    LISTENERS,
  ])) as { pid: number }[];
  return rows.map((r) => r.pid);
}

const kidsOf = async (t: TestApp) => ((await (await fetch(`${t.baseUrl}/oidc/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
const publishes = (t: TestApp, kids: string[]) => async () => {
  const served = await kidsOf(t);
  return kids.every((kid) => served.includes(kid));
};

/** Rotates the signing keys through `t`'s admin API; the kids of the new keys. */
async function rotateAt(t: TestApp): Promise<string[]> {
  const before = await kidsOf(t);
  const res = await adminClient(t.baseUrl, t.adminToken).call('POST', '/admin/v1/signing-keys/rotate');
  expect(res.status).toBe(200);
  const kids = (res.body as { kid: string }[]).map((k) => k.kid).filter((kid) => !before.includes(kid));
  expect(kids.length).toBeGreaterThan(0);
  return kids;
}

/**
 * Blocks the event loop for `ms` once, right after a merchant-cache heartbeat was sent and before its answer was
 * read, as a burst of CPU work does (large uploads): the answer waits in the socket while the heartbeat's timer
 * comes due. A heartbeat whose answer was read before the block could begin does not count; the next one is tried.
 */
async function stallAfterHeartbeat(ms: number): Promise<void> {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  let stalled: () => void;
  const done = new Promise<void>((resolve) => (stalled = resolve));
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const result = query.apply(this, args);
    const name = (this as unknown as { connectionParameters: { application_name?: string } }).connectionParameters.application_name;
    if (args[0] === 'SELECT 1' && name === 'broker-merchant-cache' && result instanceof Promise) {
      let answered = false;
      result.then(
        () => (answered = true),
        () => (answered = true),
      );
      setImmediate(() => {
        if (answered) return;
        pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
        const end = Date.now() + ms;
        while (Date.now() < end); // the stall
        stalled();
      });
    }
    return result;
  } as typeof pg.Client.prototype.query;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([done, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('no heartbeat to stall after')), 60_000)))]);
  } finally {
    clearTimeout(timer);
    pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
  }
}

/**
 * Each instance listens for merchant changes and key rotations on connections of its own (PostgreSQL
 * LISTEN/NOTIFY). Losing one must not be for good, must show on /metrics while it lasts, and must not be caused by
 * the instance itself being busy.
 */
describeWithPostgres('database notification listeners: loss, report and recovery (one PostgreSQL)', () => {
  let a: TestApp;
  let b: TestApp;
  let m: { client_id: string; client_secret: string };

  beforeAll(async () => {
    // No periodic key check falls into a test: what B publishes early, it heard (or caught up on) by itself.
    a = await startTestApp({ env: { METRICS_TOKEN, KEY_RELOAD_SECONDS: '600' } });
    b = await startTestApp({ sameDatabaseAs: a });
    m = await adminClient(a.baseUrl, a.adminToken).createMerchant({ name: 'Listening shop', redirect_uris: [REDIRECT_URI] });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('keeps its connections through an event-loop stall longer than the heartbeat timeout', async () => {
    const before = await listenerBackends(a);
    expect(before).toHaveLength(6); // three channels on each instance
    await stallAfterHeartbeat(HEARTBEAT_TIMEOUT_MS + 1_500);
    // A listener that took the stall for a lost connection is gone now and listens again after 1 s.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await listenerBackends(a)).toEqual(before);
    expect([a.app.get(MerchantCache).isListening, b.app.get(MerchantCache).isListening]).toEqual([true, true]);
    expect(await listenersUp(b)).toEqual(ALL_UP);
  }, 90_000);

  it('says on /metrics that a listener is down, stays ready, listens again within seconds, then keeps merchants and hears changes', async () => {
    const admin = adminClient(a.baseUrl, a.adminToken);
    expect(await listenersUp(b)).toEqual(ALL_UP);
    expect(await clientAccepted(b, m.client_id, m.client_secret)).toBe(true);
    // The test app never warms the face models, so it is not ready here: what matters is that the loss changes nothing.
    const readiness = async () => (await fetch(`${b.baseUrl}/health/ready`)).text();
    const readyBefore = await readiness();

    const cut = Date.now();
    // The server ends every listening session (as a restart, a network cut or a read timeout would).
    const [{ terminated }] = (await a.dataSource.query(
      'SELECT count(pg_terminate_backend(pid))::int AS terminated FROM pg_stat_activity WHERE application_name = ANY($1) AND datname = current_database()',
      [LISTENERS],
    )) as { terminated: number }[];
    expect(terminated).toBe(6);
    const whileDown: { up: Record<string, number>; ready: string }[] = [];
    await until(
      'B reports its merchant listener down',
      async () => {
        const [up, ready] = await Promise.all([listenersUp(b), readiness()]);
        if (up.merchant_changed === 0) whileDown.push({ up, ready });
        return whileDown.length > 0;
      },
      2_000,
    );
    // Still serving correctly (merchants read from the database): not a reason to leave the load balancer.
    expect(whileDown[0].ready).toBe(readyBefore);

    await until('B listens again on every channel', async () => JSON.stringify(await listenersUp(b)) === JSON.stringify(ALL_UP), 10_000);
    expect(Date.now() - cut).toBeLessThan(5_000);
    expect(b.app.get(MerchantCache).isListening).toBe(true);
    expect(b.app.get(SigningKeyChanges).isListening).toBe(true);

    // The cache is on again: the merchant is read once, then answered from memory.
    expect(await clientAccepted(b, m.client_id, m.client_secret)).toBe(true);
    const reads = await recordQueries(async () => void expect(await clientAccepted(b, m.client_id, m.client_secret)).toBe(true));
    expect(reads.filter((q) => /FROM "merchants"/.test(q.text)).map((q) => q.text)).toEqual([]);
    // Only the notification can drop the row B keeps: a change through A holds on B at once.
    expect((await admin.call('POST', `/admin/v1/merchants/${m.client_id}/disable`)).status).toBe(200);
    await until('B refuses the merchant disabled through A', async () => !(await clientAccepted(b, m.client_id, m.client_secret)), 2_000);
    expect((await admin.call('POST', `/admin/v1/merchants/${m.client_id}/enable`)).status).toBe(200);
    await until('B accepts it again', () => clientAccepted(b, m.client_id, m.client_secret), 2_000);

    // And the key listener: a rotation on A is published by B long before its periodic check (600 s).
    const kids = await rotateAt(a);
    await until('B publishes the keys rotated on A', publishes(b, kids), 5_000);
  }, 60_000);

  it('catches up on a key rotation made while its listener was down, as soon as it listens again', async () => {
    const changes = b.app.get(SigningKeyChanges);
    // The key listeners' connection attempts fail until the rotation is made: it cannot be heard.
    const connect = pg.Client.prototype.connect as (...args: unknown[]) => unknown;
    pg.Client.prototype.connect = function (this: pg.Client, ...args: unknown[]) {
      const name = (this as unknown as { connectionParameters: { application_name?: string } }).connectionParameters.application_name;
      return name === 'broker-signing-keys' ? Promise.reject(new Error('refused by the test')) : connect.apply(this, args);
    } as typeof pg.Client.prototype.connect;
    let kids: string[];
    try {
      await a.dataSource.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'broker-signing-keys' AND datname = current_database()",
      );
      await until('B notices', () => !changes.isListening, 2_000);
      kids = await rotateAt(a);
      await new Promise((r) => setTimeout(r, 500));
      expect(await publishes(b, kids)()).toBe(false);
    } finally {
      pg.Client.prototype.connect = connect as typeof pg.Client.prototype.connect;
    }
    // The next attempt is at most 4 s away (1 s, 2 s, 4 s after the loss); the periodic check 600 s.
    await until('B listens again', () => changes.isListening, 10_000);
    await until('B publishes the keys rotated while it was deaf', publishes(b, kids), 3_000);
  }, 60_000);
});
