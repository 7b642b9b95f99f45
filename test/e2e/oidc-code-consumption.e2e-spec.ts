import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { canShareDatabase, startTestApp, type TestApp } from '../support/test-app.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const TRIALS = 8;

/**
 * Spec 3: a code is consumed once; a second use fails and invalidates the tokens obtained with it.
 * Redemptions race here for real: simultaneous requests spread over two instances of the service on one
 * PostgreSQL database (one instance when the suite runs on the embedded database).
 */
describe('single use of codes and refresh tokens under concurrency (spec 3)', () => {
  let a: TestApp;
  let b: TestApp;
  let merchant: { client_id: string; client_secret: string };
  let config: client.Configuration;

  beforeAll(async () => {
    a = await startTestApp({ env: { AUTHORIZATION_CODE_TTL_SECONDS: '3' } });
    b = canShareDatabase() ? await startTestApp({ sameDatabaseAs: a }) : a;
    merchant = await adminClient(a.baseUrl, a.adminToken).createMerchant({ name: 'Race shop', redirect_uris: [REDIRECT_URI] });
    config = await discover(`${a.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
  });
  afterAll(async () => {
    if (b !== a) await b?.close();
    await a?.close();
  });

  const tokenRequest = (base: string, params: Record<string, string>) =>
    fetch(`${base}/oidc/token`, {
      method: 'POST',
      headers: { authorization: basic(merchant.client_id, merchant.client_secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, string> }));
  const userinfo = (accessToken: string) => fetch(`${a.baseUrl}/oidc/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });

  async function freshCode(extra: Record<string, string> = {}) {
    const req = await authorizationRequest(config, extra);
    const { callback } = await loginWithTestEid(a.baseUrl, req.url);
    return { code: callback.searchParams.get('code')!, verifier: req.verifier };
  }

  /** Three redemptions at once, alternating instances; returns their answers. */
  const race = (params: Record<string, string>) => Promise.all([a, b, a].map((app) => tokenRequest(app.baseUrl, params)));

  it(`issues at most one token set for a code redeemed three times at once (${TRIALS} trials, two instances)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const { code, verifier } = await freshCode();
      const answers = await race({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
      const won = answers.filter((r) => r.status === 200);
      const lost = answers.filter((r) => r.status !== 200);
      expect({ trial, successes: won.length }).toEqual({ trial, successes: 1 });
      for (const r of lost) expect(r).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      // The losers' attempts are replays: whatever the winner got is invalidated (spec 3).
      for (const r of won) expect((await userinfo(r.body.access_token)).status).toBe(401);
    }
  });

  it('rotates a refresh token at most once when it is used three times at once, and revokes the grant', async () => {
    for (let trial = 0; trial < TRIALS / 2; trial++) {
      const { code, verifier } = await freshCode({ scope: 'openid profile offline_access', prompt: 'consent' });
      const first = await tokenRequest(a.baseUrl, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
      expect(first.status).toBe(200);
      expect(first.body.refresh_token).toBeDefined();
      const answers = await race({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
      const won = answers.filter((r) => r.status === 200);
      expect({ trial, successes: won.length }).toEqual({ trial, successes: 1 });
      for (const r of answers.filter((x) => x.status !== 200)) expect(r).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      for (const r of won) {
        expect((await userinfo(r.body.access_token)).status).toBe(401);
        expect((await tokenRequest(b.baseUrl, { grant_type: 'refresh_token', refresh_token: r.body.refresh_token })).status).toBe(400);
      }
      expect((await userinfo(first.body.access_token)).status).toBe(401);
    }
  });

  it('revokes the tokens of a code replayed after the code expired, even after the expired-row purge', async () => {
    const { code, verifier } = await freshCode();
    const params = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    const first = await tokenRequest(a.baseUrl, params);
    expect(first.status).toBe(200);
    expect((await userinfo(first.body.access_token)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3500)); // the code lives 3 s here
    await purgeExpiredRows(a);
    const replay = await tokenRequest(b.baseUrl, params);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await userinfo(first.body.access_token)).status).toBe(401);
  });
});

async function purgeExpiredRows(app: TestApp): Promise<void> {
  const { OidcProviderService } = await import('../../src/oidc/provider/oidc-provider.service.js');
  await app.app.get(OidcProviderService).purge();
}
