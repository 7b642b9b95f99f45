import pg from 'pg';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';

interface Query {
  text: string;
  values: unknown[];
}

/** Every query the service's pg clients send while `work` runs (the test app runs in this process). */
async function recordQueries(work: () => Promise<void>): Promise<Query[]> {
  const seen: Query[] = [];
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] } | undefined;
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const values = (typeof first === 'string' ? args[1] : first?.values) as unknown[] | undefined;
    seen.push({ text, values: Array.isArray(values) ? values : [] });
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
  }
  return seen;
}

/**
 * What an instance sends on its own clock, whatever the requests: the merchant cache's heartbeat on its LISTEN
 * connection, the signing key reload (KEY_RELOAD_SECONDS), the CIBA outbox's rounds and the purges (their advisory
 * locks and their deletes of what has expired; a login's own deletes still count). A login that takes a few seconds on a loaded machine can meet any of them; none is a round
 * trip of the login.
 */
const isBackground = (q: Query) =>
  /^\s*SELECT 1\s*$/.test(q.text) || /FROM "?signing_keys"?/.test(q.text) || /\bciba_outbox\b/.test(q.text) || /pg_(try_)?advisory_(un)?lock\(/.test(q.text) || /^\s*DELETE FROM .*"?expires_at"?\s*<=?/is.test(q.text);

/**
 * Database round trips of one warm login through the test eID (issue 15, the hot path): every one costs both the
 * service and PostgreSQL CPU, so the login makes none it does not need.
 */
describeWithPostgres('database round trips of a login', () => {
  let t: TestApp;
  let config: Awaited<ReturnType<typeof discover>>;

  beforeAll(async () => {
    t = await startTestApp();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Round trips', redirect_uris: [REDIRECT_URI] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    await loginWithTestEid(t.baseUrl, (await authorizationRequest(config)).url); // merchant and keys in memory
  });
  afterAll(() => t?.close());

  it('reads the interaction once per request and no brokered login before the token request', async () => {
    const request = await authorizationRequest(config);
    let callback: URL | undefined;
    const queries = (
      await recordQueries(async () => {
        ({ callback } = await loginWithTestEid(t.baseUrl, request.url));
      })
    ).filter((q) => !isBackground(q));
    expect(callback?.searchParams.get('code')).toBeTruthy();
    const engineReads = (model: string) => queries.filter((q) => /^\s*SELECT .* FROM oidc_payloads/s.test(q.text) && q.values[0] === model).length;
    // The scheme page, the choice, the person page, the person's POST, the resume: each request reads its
    // interaction once (the POST read it twice before: the engine's interactionFinished looked it up again).
    expect(engineReads('Interaction')).toBe(5);
    // The login this interaction finished was stored by it: the resume does not look it up (it did, to check the
    // session's login belongs to this merchant).
    expect(queries.filter((q) => /FROM "?brokered_logins"?/.test(q.text))).toEqual([]);
    // 15 before these two: 6 requests, 13 queries. Failing, the test prints what was sent.
    const texts = queries.map((q) => q.text.replace(/\s+/g, ' ').slice(0, 120));
    expect(texts.length <= 13 ? [] : texts).toEqual([]);
  }, 60_000);
});
