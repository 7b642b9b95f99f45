import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { INTERACTION_PATH, OIDC_ROUTES } from '../../src/oidc/provider/routes.js';
import { REDIS, type RedisHandle } from '../../src/redis/redis.module.js';
import { adminClient } from '../support/admin-client.js';
import { startInstanceRouter, type InstanceRouter } from '../support/instance-router.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { TestBrowser } from '../support/test-browser.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/**
 * Issue 15, acceptance: two instances on one PostgreSQL and one Redis, behind one address with no sticky
 * sessions. A login starts on one, the broker pages run on the other, token and user-info alternate; a code
 * redeemed on both at once issues one token set, which the losing redemption revokes (spec 3).
 */
describeWithPostgres('two instances on PostgreSQL and Redis', () => {
  let router: InstanceRouter;
  let a: TestApp;
  let b: TestApp;
  let prefix: string;
  let merchant: { client_id: string; client_secret: string };
  let config: client.Configuration;

  beforeAll(async () => {
    router = await startInstanceRouter();
    prefix = `test-${randomBytes(6).toString('hex')}:`;
    // Codes live 3 s here, for the replay after expiry.
    const env = { BASE_URL: router.url, REDIS_URL, REDIS_KEY_PREFIX: prefix, AUTHORIZATION_CODE_TTL_SECONDS: '3' };
    a = await startTestApp({ env });
    b = await startTestApp({ sameDatabaseAs: a, env });
    router.instances = { a: a.config.port, b: b.config.port };
    router.route = 'a';
    merchant = await adminClient(router.url, a.adminToken).createMerchant({ name: 'Scaled shop', redirect_uris: [REDIRECT_URI] });
    config = await discover(`${router.url}/oidc`, merchant.client_id, merchant.client_secret);
  });
  afterAll(async () => {
    // The first instance's close removes the keys under the test-… prefix.
    await b?.close();
    await a?.close();
    await router?.close();
  });

  /** The authorization request on `start`, the broker pages and the test eID on `pages`; returns the merchant callback. */
  async function login(start: string, pages: string, extra: Record<string, string> = {}) {
    const request = await authorizationRequest(config, { scope: 'openid profile offline_access', prompt: 'consent', ...extra });
    const browser = new TestBrowser(router.url);
    router.route = start;
    let page = await browser.get(request.url.toString());
    expect(page).toMatchObject({ status: 303, location: expect.stringContaining(INTERACTION_PATH) });
    router.route = pages;
    page = await browser.follow(page);
    if (page.html.includes('data-eid="test"')) page = await browser.submit(page, 'eid', 'test');
    page = await browser.follow(await browser.submit(page, 'person', 'uto-passport'));
    if (!page.location?.startsWith(REDIRECT_URI)) throw new Error(`expected the merchant's callback, got ${page.status}: ${page.html.slice(0, 800)}`);
    return { request, callback: new URL(page.location) };
  }

  it('completes a login that starts on one instance, runs its pages on the other, and alternates token and user-info', async () => {
    router.served = [];
    const { request, callback } = await login('a', 'b');
    const authorize = router.served.filter((s) => s.path === OIDC_ROUTES.authorization);
    const pages = router.served.filter((s) => s.path.startsWith(INTERACTION_PATH));
    expect(authorize[0].instance).toBe('a');
    expect(pages.length).toBeGreaterThan(1);
    expect(new Set(pages.map((s) => s.instance))).toEqual(new Set(['b']));

    router.served = [];
    router.route = 'a';
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const sub = tokens.claims()!.sub;
    router.route = 'b';
    expect((await client.fetchUserInfo(config, tokens.access_token, sub)).sub).toBe(sub);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    router.route = 'a';
    expect((await client.fetchUserInfo(config, refreshed.access_token, sub)).sub).toBe(sub);
    const served = router.served.filter((s) => s.path === OIDC_ROUTES.token || s.path === OIDC_ROUTES.userinfo);
    expect(served.map((s) => `${s.path} ${s.instance}`)).toEqual([
      `${OIDC_ROUTES.token} a`,
      `${OIDC_ROUTES.userinfo} b`,
      `${OIDC_ROUTES.token} b`,
      `${OIDC_ROUTES.userinfo} a`,
    ]);

    // The short-lived state was in Redis, the long-lived in PostgreSQL (the interaction is gone once finished).
    const models = ((await a.dataSource.query(`SELECT DISTINCT model FROM oidc_payloads ORDER BY model`)) as { model: string }[]).map((r) => r.model);
    expect(models).toEqual(['Grant', 'RefreshToken']);
    const redis = b.app.get<symbol, RedisHandle>(REDIS, { strict: false })!;
    const kinds = new Set((await redis.keys(`${prefix}oidc:*`)).map((k) => k.slice(prefix.length).split(':')[1]));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['AccessToken', 'AuthorizationCode', 'Session']));
  });

  const tokenRequest = (port: number, params: Record<string, string>) =>
    fetch(`http://127.0.0.1:${port}${OIDC_ROUTES.token}`, {
      method: 'POST',
      headers: { authorization: basic(merchant.client_id, merchant.client_secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, string> }));
  const userinfo = (port: number, token: string) => fetch(`http://127.0.0.1:${port}${OIDC_ROUTES.userinfo}`, { headers: { authorization: `Bearer ${token}` } });

  it('issues one token set for a code redeemed on both instances at once, and revokes it', async () => {
    for (let trial = 0; trial < 4; trial++) {
      const { request, callback } = await login(trial % 2 ? 'b' : 'a', trial % 2 ? 'a' : 'b');
      const params = {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: REDIRECT_URI,
        code_verifier: request.verifier,
      };
      const answers = await Promise.all([a, b].map((app) => tokenRequest(app.config.port, params)));
      const won = answers.filter((r) => r.status === 200);
      expect({ trial, won: won.length }).toEqual({ trial, won: 1 });
      expect(answers.find((r) => r.status !== 200)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      // The loser's redemption is a replay: the winner's tokens are revoked, on both instances.
      for (const app of [a, b]) expect((await userinfo(app.config.port, won[0].body.access_token)).status).toBe(401);
      expect(await tokenRequest(b.config.port, { grant_type: 'refresh_token', refresh_token: won[0].body.refresh_token })).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
    }
  });

  it('revokes the tokens of a code replayed on the other instance after the code expired', async () => {
    const { request, callback } = await login('a', 'b');
    const params = { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: request.verifier };
    const first = await tokenRequest(a.config.port, params);
    expect(first.status).toBe(200);
    expect((await userinfo(b.config.port, first.body.access_token)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(await tokenRequest(b.config.port, params)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await userinfo(a.config.port, first.body.access_token)).status).toBe(401);
    expect((await tokenRequest(a.config.port, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token })).status).toBe(400);
  });
});
