import { calculateJwkThumbprint, exportJWK } from 'jose';
import * as client from 'openid-client';
import { OIDC_ROUTES } from '../../src/oidc/provider/routes.js';
import { adminClient } from '../support/admin-client.js';
import { answerOnTestPage, pollOnce, provisioning, provisioningCodeOf } from '../support/ciba-flow.js';
import { athOf, dpopKeys, dpopProof, tokenRequest, userinfoRequest } from '../support/dpop-proof.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const now = () => Math.floor(Date.now() / 1000);

/**
 * DPoP (RFC 9449) for a plain merchant (no FAPI profile) that registered dpop_bound_access_tokens: openid-client logs in,
 * calls user-info and refreshes with proofs; then each rule of the RFC with the request a broken or attacking client
 * would send. TRUST_PROXY is on, so the proxy's headers make the public origin a proof's htu is compared with.
 */
describe('DPoP-bound access tokens for a plain merchant', () => {
  let app: TestApp;
  let merchant: { client_id: string; client_secret: string } & Record<string, unknown>;
  let config: client.Configuration;
  let tokenUrl: string;
  let userinfoUrl: string;
  /** A login's key and DPoP-bound tokens, for the rules at user-info. */
  let keys: client.CryptoKeyPair;
  let accessToken: string;

  /** A login through the test eID; the merchant's callback (with its code) and the request's PKCE verifier. */
  async function login() {
    const request = await authorizationRequest(config, { scope: 'openid profile offline_access', prompt: 'consent' });
    const { callback } = await loginWithTestEid(app.baseUrl, request.url);
    return { request, callback, code: callback.searchParams.get('code')! };
  }
  const codeParams = (code: string, verifier: string) => ({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier });

  beforeAll(async () => {
    app = await startTestApp({ env: { TRUST_PROXY: 'true', CIBA_POLL_INTERVAL_SECONDS: '1' } });
    merchant = await adminClient(app.baseUrl, app.adminToken).createMerchant({
      name: 'DPoP shop',
      redirect_uris: [REDIRECT_URI],
      dpop_bound_access_tokens: true,
    });
    config = await discover(`${app.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
    tokenUrl = `${app.baseUrl}${OIDC_ROUTES.token}`;
    userinfoUrl = `${app.baseUrl}${OIDC_ROUTES.userinfo}`;
    keys = await dpopKeys();
    const { request, code } = await login();
    const tokens = await tokenRequest(tokenUrl, merchant, codeParams(code, request.verifier), await dpopProof(keys, { htm: 'POST', htu: tokenUrl }));
    expect(tokens).toMatchObject({ status: 200, body: { token_type: 'DPoP' } });
    accessToken = tokens.body.access_token as string;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is a merchant setting of the admin API, false by default, refused beside push delivery', async () => {
    const admin = adminClient(app.baseUrl, app.adminToken);
    expect(merchant.dpop_bound_access_tokens).toBe(true);
    const plain = await admin.createMerchant({ name: 'Plain shop', redirect_uris: [REDIRECT_URI] });
    expect(plain.dpop_bound_access_tokens).toBe(false);
    const push = await admin.call('POST', '/admin/v1/merchants', {
      name: 'Push shop',
      redirect_uris: [REDIRECT_URI],
      dpop_bound_access_tokens: true,
      backchannel_token_delivery_mode: 'push',
      backchannel_client_notification_endpoint: 'http://localhost:9/ciba',
    });
    expect(push).toMatchObject({ status: 400, body: { fields: { dpop_bound_access_tokens: [expect.stringContaining('push')] } } });
    const text = await admin.call('PATCH', `/admin/v1/merchants/${plain.client_id}`, { dpop_bound_access_tokens: 'yes' });
    expect(text.status).toBe(400);
    const switched = await admin.call('PATCH', `/admin/v1/merchants/${plain.client_id}`, { dpop_bound_access_tokens: true });
    expect(switched).toMatchObject({ status: 200, body: { dpop_bound_access_tokens: true } });
    // What a client library reads to choose its proof algorithm (RFC 9449 §5.1).
    expect(config.serverMetadata().dpop_signing_alg_values_supported).toContain('ES256');
  });

  it('logs in, calls user-info and refreshes with openid-client as the merchant, every token bound to its key', async () => {
    const { request, callback } = await login();
    const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const tokens = await client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: request.verifier, expectedState: request.state, expectedNonce: request.nonce },
      undefined,
      { DPoP },
    );
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    const sub = tokens.claims()!.sub;
    expect((await client.fetchUserInfo(config, tokens.access_token, sub, { DPoP })).sub).toBe(sub);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
    expect(refreshed.token_type.toLowerCase()).toBe('dpop');
    expect((await client.fetchUserInfo(config, refreshed.access_token, sub, { DPoP })).sub).toBe(sub);
  });

  it('RFC 9449 §5.2: refuses a token request without a proof as invalid_dpop_proof, and the code still works with one', async () => {
    const { request, code } = await login();
    const bare = await tokenRequest(tokenUrl, merchant, codeParams(code, request.verifier));
    expect(bare).toMatchObject({ status: 400, body: { error: 'invalid_dpop_proof', error_description: expect.stringContaining('DPoP proof') } });
    const own = await dpopKeys();
    const proved = await tokenRequest(tokenUrl, merchant, codeParams(code, request.verifier), await dpopProof(own, { htm: 'POST', htu: tokenUrl }));
    expect(proved).toMatchObject({ status: 200, body: { token_type: 'DPoP' } });
    // The refresh as well (RFC 9449 §5.2: every token request of this client).
    const refresh = { grant_type: 'refresh_token', refresh_token: proved.body.refresh_token as string };
    expect(await tokenRequest(tokenUrl, merchant, refresh)).toMatchObject({ status: 400, body: { error: 'invalid_dpop_proof' } });
  });

  it('RFC 9449 §5.2: holds for the CIBA poll too: refused without a proof, a DPoP-bound token with one', async () => {
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'dpop-app',
      binding_message: provisioning('dpop-app'),
    });
    expect(await answerOnTestPage(app.baseUrl, 'dpop-app', 'uto-passport', provisioningCodeOf(started))).toContain('done=approved');
    const bare = await pollOnce(app.baseUrl, merchant.client_id, merchant.client_secret, started.auth_req_id);
    expect(bare).toMatchObject({ status: 400, body: { error: 'invalid_dpop_proof' } });
    const DPoP = client.getDPoPHandle(config, await dpopKeys());
    const tokens = await client.pollBackchannelAuthenticationGrant(config, started, undefined, { DPoP });
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
  });

  it('RFC 9449 §10: redeems a code bound to a key by dpop_jkt only with a proof of that key', async () => {
    const bound = await dpopKeys();
    const dpop_jkt = await calculateJwkThumbprint(await exportJWK(bound.publicKey));
    const stolen = await authorizationRequest(config, { dpop_jkt });
    const code = (await loginWithTestEid(app.baseUrl, stolen.url)).callback.searchParams.get('code')!;
    const other = await tokenRequest(tokenUrl, merchant, codeParams(code, stolen.verifier), await dpopProof(await dpopKeys(), { htm: 'POST', htu: tokenUrl }));
    expect(other).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The engine spends the code on that refusal (like any code presented twice, spec 3): the merchant's own login is a new one.
    const request = await authorizationRequest(config, { dpop_jkt });
    const own = (await loginWithTestEid(app.baseUrl, request.url)).callback.searchParams.get('code')!;
    const tokens = await tokenRequest(tokenUrl, merchant, codeParams(own, request.verifier), await dpopProof(bound, { htm: 'POST', htu: tokenUrl }));
    expect(tokens).toMatchObject({ status: 200, body: { token_type: 'DPoP' } });
  });

  it('RFC 9449 §4.3 step 8: refuses a proof made for another method (htm)', async () => {
    const proof = await dpopProof(keys, { htm: 'POST', htu: userinfoUrl, accessToken });
    const refused = await userinfoRequest(userinfoUrl, accessToken, proof);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^DPoP .*error="invalid_dpop_proof"/);
  });

  it('RFC 9449 §4.3 step 9: refuses a proof made for another URL (htu), and judges htu by the public origin behind the proxy', async () => {
    const forToken = await userinfoRequest(userinfoUrl, accessToken, await dpopProof(keys, { htm: 'GET', htu: tokenUrl, accessToken }));
    expect(forToken).toMatchObject({ status: 401, body: { error: 'invalid_dpop_proof' } });
    // Behind the TLS proxy the merchant calls https://broker.example: the service's own address is not the URL it called.
    const proxied = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'broker.example' };
    const params = { grant_type: 'authorization_code', code: 'no-such-code', redirect_uri: REDIRECT_URI, code_verifier: 'v'.repeat(43) };
    const inner = await tokenRequest(tokenUrl, merchant, params, await dpopProof(keys, { htm: 'POST', htu: tokenUrl }), proxied);
    expect(inner).toMatchObject({ status: 400, body: { error: 'invalid_dpop_proof' } });
    // The public URL passes the proof's checks: what is refused then is the made-up code.
    const outer = await tokenRequest(tokenUrl, merchant, params, await dpopProof(keys, { htm: 'POST', htu: 'https://broker.example/oidc/token' }), proxied);
    expect(outer).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('RFC 9449 §4.3 step 11 and §11.1: refuses a proof issued too long ago or in the future (iat)', async () => {
    for (const iat of [now() - 600, now() + 600]) {
      const refused = await userinfoRequest(userinfoUrl, accessToken, await dpopProof(keys, { htm: 'GET', htu: userinfoUrl, accessToken, iat }));
      expect({ iat, ...refused.body }).toMatchObject({ iat, error: 'invalid_dpop_proof' });
    }
    const recent = await userinfoRequest(userinfoUrl, accessToken, await dpopProof(keys, { htm: 'GET', htu: userinfoUrl, accessToken, iat: now() - 60 }));
    expect(recent.status).toBe(200);
  });

  it('RFC 9449 §11.1: refuses a proof sent a second time (jti), at user-info and at the token endpoint', async () => {
    const proof = await dpopProof(keys, { htm: 'GET', htu: userinfoUrl, accessToken });
    expect((await userinfoRequest(userinfoUrl, accessToken, proof)).status).toBe(200);
    const again = await userinfoRequest(userinfoUrl, accessToken, proof);
    expect(again).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    expect(again.headers.get('www-authenticate')).toMatch(/^DPoP /);

    const { request, code } = await login();
    const own = await dpopKeys();
    const first = await tokenRequest(tokenUrl, merchant, codeParams(code, request.verifier), await dpopProof(own, { htm: 'POST', htu: tokenUrl }));
    const tokenProof = await dpopProof(own, { htm: 'POST', htu: tokenUrl });
    const refreshed = await tokenRequest(tokenUrl, merchant, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string }, tokenProof);
    expect(refreshed.status).toBe(200);
    const replayed = await tokenRequest(tokenUrl, merchant, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token as string }, tokenProof);
    expect(replayed).toMatchObject({ status: 400, body: { error: 'invalid_dpop_proof', error_description: expect.stringContaining('already used') } });
  });

  it('RFC 9449 §7: refuses a proof without ath, or with the hash of another token', async () => {
    const none = await userinfoRequest(userinfoUrl, accessToken, await dpopProof(keys, { htm: 'GET', htu: userinfoUrl }));
    expect(none).toMatchObject({ status: 401, body: { error: 'invalid_dpop_proof' } });
    const other = await userinfoRequest(userinfoUrl, accessToken, await dpopProof(keys, { htm: 'GET', htu: userinfoUrl, ath: athOf(`${accessToken}x`) }));
    expect(other).toMatchObject({ status: 401, body: { error: 'invalid_dpop_proof' } });
  });

  it('RFC 9449 §7.1: refuses the DPoP-bound token presented as a Bearer token', async () => {
    const bearer = await userinfoRequest(userinfoUrl, accessToken, undefined, 'Bearer');
    expect(bearer).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    expect(bearer.headers.get('www-authenticate')).toMatch(/^DPoP .*error="invalid_token"/);
    // Nor as DPoP without a proof.
    expect((await userinfoRequest(userinfoUrl, accessToken)).status).toBeGreaterThanOrEqual(400);
  });

  it('RFC 9449 §7: refuses a proof signed by another key than the one the token is bound to', async () => {
    const thief = await dpopKeys();
    const stolen = await userinfoRequest(userinfoUrl, accessToken, await dpopProof(thief, { htm: 'GET', htu: userinfoUrl, accessToken }));
    expect(stolen).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    expect((await userinfoRequest(userinfoUrl, accessToken, await dpopProof(keys, { htm: 'GET', htu: userinfoUrl, accessToken }))).status).toBe(200);
  });

  it('spec 4.5: the merchant ends its DPoP-bound token with its own credentials, no proof (the token is what is ended)', async () => {
    const { request, code } = await login();
    const own = await dpopKeys();
    const tokens = await tokenRequest(tokenUrl, merchant, codeParams(code, request.verifier), await dpopProof(own, { htm: 'POST', htu: tokenUrl }));
    const token = tokens.body.access_token as string;
    const basic = Buffer.from(`${merchant.client_id}:${merchant.client_secret}`).toString('base64');
    const ended = await fetch(`${app.baseUrl}/oidc/token?token=${encodeURIComponent(token)}`, {
      method: 'DELETE',
      headers: { authorization: `Basic ${basic}` },
    });
    expect(ended.status).toBe(200);
    const after = await userinfoRequest(userinfoUrl, token, await dpopProof(own, { htm: 'GET', htu: userinfoUrl, accessToken: token }));
    expect(after).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
  });

  it('leaves a merchant without the setting as it was: Bearer tokens without a proof', async () => {
    const plain = await adminClient(app.baseUrl, app.adminToken).createMerchant({ name: 'Bearer shop', redirect_uris: [REDIRECT_URI] });
    const plainConfig = await discover(`${app.baseUrl}/oidc`, plain.client_id, plain.client_secret);
    const request = await authorizationRequest(plainConfig);
    const { callback } = await loginWithTestEid(app.baseUrl, request.url);
    const tokens = await tokenRequest(tokenUrl, plain, codeParams(callback.searchParams.get('code')!, request.verifier));
    expect(tokens).toMatchObject({ status: 200, body: { token_type: 'BEARER' } });
    expect((await userinfoRequest(userinfoUrl, tokens.body.access_token as string, undefined, 'Bearer')).status).toBe(200);
  });
});
