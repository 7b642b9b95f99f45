import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { recordQueries, type Query } from '../support/record-queries.js';

/**
 * What an instance sends on its own clock, whatever the requests: the heartbeats of its LISTEN connections (merchant
 * cache, signing keys), the signing key check (KEY_RELOAD_SECONDS), the CIBA outbox's rounds and the purges (their advisory
 * locks and their deletes of what has expired; a login's own deletes still count). A login that takes a few seconds on a loaded machine can meet any of them; none is a round
 * trip of the login.
 */
const isBackground = (q: Query) =>
  /^\s*SELECT 1\s*$/.test(q.text) ||
  /FROM "?signing_keys"?/.test(q.text) ||
  /\bciba_outbox\b/.test(q.text) ||
  /pg_(try_)?advisory_(un)?lock\(/.test(q.text) ||
  /^\s*DELETE FROM .*"?expires_at"?\s*<=?/is.test(q.text);

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

  it('exchanges a code in 5 round trips, reading the login with its grant', async () => {
    const request = await authorizationRequest(config);
    const { callback } = await loginWithTestEid(t.baseUrl, request.url);
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>> | undefined;
    const queries = (
      await recordQueries(async () => {
        tokens = await client.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: request.verifier,
          expectedState: request.state,
          expectedNonce: request.nonce,
        });
      })
    ).filter((q) => !isBackground(q));
    // The claims are the login's: read in the grant's query, not by a query of their own.
    expect(tokens?.claims()?.given_name).toBeTruthy();
    const texts = queries.map((q) => q.text.replace(/\s+/g, ' ').trim());
    expect(texts.filter((q) => /^SELECT .* FROM brokered_logins/.test(q))).toEqual([]);
    expect(texts.some((q) => /FROM oidc_payloads p LEFT JOIN brokered_logins/.test(q))).toBe(true);
    // The code, its session, its grant with the login, the code's consumption, the access token. 6 before.
    expect(texts.length <= 5 ? [] : texts).toEqual([]);
  }, 60_000);
});
