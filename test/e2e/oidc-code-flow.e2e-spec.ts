import { compactDecrypt, createRemoteJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('authorization code flow with a real relying party (openid-client)', () => {
  let t: TestApp;
  let issuer: string;
  let admin: ReturnType<typeof adminClient>;

  beforeAll(async () => {
    t = await startTestApp();
    issuer = `${t.baseUrl}/oidc`;
    admin = adminClient(t.baseUrl, t.adminToken);
  });
  afterAll(() => t.close());

  it('RS256 merchant: PKCE, state, nonce, signed ID token valid 15 minutes, signed user-info JWT', async () => {
    const m = await admin.createMerchant({ name: 'RS shop', redirect_uris: [REDIRECT_URI] });
    const config = await discover(issuer, m.client_id, m.client_secret);
    client.enableNonRepudiationChecks(config);
    const req = await authorizationRequest(config);
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    expect(callback.searchParams.get('state')).toBe(req.state);

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: req.verifier,
      expectedState: req.state,
      expectedNonce: req.nonce,
      idTokenExpected: true,
    });
    expect(tokens.token_type.toUpperCase()).toBe('BEARER');
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!), { [Symbol.for('allowInsecure')]: true } as never);
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, jwks, { issuer, audience: m.client_id });
    expect(protectedHeader.alg).toBe('RS256');
    expect(protectedHeader.kid).toBeDefined();
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(payload.nonce).toBe(req.nonce);
    expect(payload.azp).toBe(m.client_id);
    expect(payload.auth_time).toEqual(expect.any(Number));
    expect(payload.amr).toEqual(['sc', 'face']);
    expect(payload).toMatchObject({ primary_identifier: 'ERIKSSON', document_number: 'L898902C3', personal_number: 'ZE184226B' });

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, payload.sub!);
    expect(userinfo).toMatchObject({ sub: payload.sub, document_number: 'L898902C3', authentication_result: 'pass' });
  });
});
