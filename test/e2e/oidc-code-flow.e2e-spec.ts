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
  afterAll(() => t?.close());

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

describe('ES256 merchant with encrypted ID token and user-info', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('signs with ES256, then encrypts with the merchant key (RSA-OAEP-256); the merchant decrypts and verifies both', async () => {
    const admin = adminClient(t.baseUrl, t.adminToken);
    const encryption = await generateKeyPair('RSA-OAEP-256', { extractable: true });
    const publicJwk = { ...(await exportJWK(encryption.publicKey)), kid: 'merchant-enc-1' };
    const m = await admin.createMerchant({
      name: 'ES shop',
      redirect_uris: [REDIRECT_URI],
      id_token_signed_response_alg: 'ES256',
      id_token_encrypted_response_alg: 'RSA-OAEP-256',
      id_token_encrypted_response_enc: 'A256GCM',
      userinfo_encrypted_response_alg: 'RSA-OAEP-256',
      jwks: { keys: [publicJwk] },
    });
    const issuer = `${t.baseUrl}/oidc`;
    const config = await discover(issuer, m.client_id, m.client_secret, { id_token_signed_response_alg: 'ES256' });
    const req = await authorizationRequest(config);
    const { callback } = await loginWithTestEid(t.baseUrl, req.url, 'd-idcard');

    // The raw exchange, as a merchant without a library would do it.
    const tokenResponse = await fetch(`${t.baseUrl}/oidc/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${m.client_id}:${m.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: REDIRECT_URI,
        code_verifier: req.verifier,
      }),
    });
    expect(tokenResponse.status).toBe(200);
    const body = (await tokenResponse.json()) as Record<string, unknown>;
    expect(body.token_type).toBe('BEARER');
    expect(body.expires_in).toEqual(expect.any(Number));
    const idToken = body.id_token as string;
    expect(idToken.split('.')).toHaveLength(5);
    expect(decodeProtectedHeader(idToken)).toMatchObject({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'merchant-enc-1' });
    const { plaintext } = await compactDecrypt(idToken, encryption.privateKey);
    const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
    const { payload, protectedHeader } = await jwtVerify(new TextDecoder().decode(plaintext), jwks, { issuer, audience: m.client_id });
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(payload.nonce).toBe(req.nonce);
    expect(payload).toMatchObject({ issuing_country: 'D', primary_identifier: 'MUSTERMANN', place_of_birth: 'BERLIN' });

    const userinfoResponse = await fetch(`${t.baseUrl}/oidc/userinfo`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(userinfoResponse.status).toBe(200);
    expect(userinfoResponse.headers.get('content-type')).toContain('application/jwt');
    const userinfoJwe = await userinfoResponse.text();
    expect(userinfoJwe.split('.')).toHaveLength(5);
    const inner = await compactDecrypt(userinfoJwe, encryption.privateKey);
    const userinfo = await jwtVerify(new TextDecoder().decode(inner.plaintext), jwks, { issuer, audience: m.client_id });
    expect(userinfo.protectedHeader.alg).toBe('ES256');
    expect(userinfo.payload).toMatchObject({ sub: payload.sub, document_number: 'T22000129' });

    // And through openid-client, which decrypts with the merchant's key.
    const req2 = await authorizationRequest(config);
    const second = await loginWithTestEid(t.baseUrl, req2.url, 'd-idcard');
    client.enableDecryptingResponses(config, ['A256GCM'], { key: encryption.privateKey, kid: 'merchant-enc-1' });
    const tokens = await client.authorizationCodeGrant(config, second.callback, {
      pkceCodeVerifier: req2.verifier,
      expectedState: req2.state,
      expectedNonce: req2.nonce,
    });
    expect(tokens.claims()).toMatchObject({ sub: payload.sub, document_number: 'T22000129' });
  });
});

describe('other token endpoint authentication methods of spec 2.9', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const exchangeWith = async (config: client.Configuration) => {
    const req = await authorizationRequest(config);
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    return client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: req.verifier, expectedState: req.state, expectedNonce: req.nonce });
  };

  it('private_key_jwt: the merchant signs its client assertion with its registered key', async () => {
    const admin = adminClient(t.baseUrl, t.adminToken);
    const keys = await generateKeyPair('RS256', { extractable: true });
    const m = await admin.createMerchant({
      name: 'PKJ shop',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'client-auth', alg: 'RS256' }] },
    });
    const issuer = `${t.baseUrl}/oidc`;
    const config = await client.discovery(
      new URL(issuer),
      m.client_id,
      { token_endpoint_auth_method: 'private_key_jwt' },
      client.PrivateKeyJwt({ key: keys.privateKey, kid: 'client-auth' }),
      {
        execute: [client.allowInsecureRequests],
      },
    );
    expect((await exchangeWith(config)).access_token).toBeDefined();
    const other = await generateKeyPair('RS256');
    const forged = await client.discovery(
      new URL(issuer),
      m.client_id,
      { token_endpoint_auth_method: 'private_key_jwt' },
      client.PrivateKeyJwt({ key: other.privateKey, kid: 'client-auth' }),
      {
        execute: [client.allowInsecureRequests],
      },
    );
    await expect(exchangeWith(forged)).rejects.toMatchObject({ error: 'invalid_client' });
  });

  it("client_secret_post: the secret in the form body (HTTP Basic, the spec's method, stays accepted too)", async () => {
    const admin = adminClient(t.baseUrl, t.adminToken);
    const m = await admin.createMerchant({ name: 'Post shop', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'client_secret_post' });
    const config = await client.discovery(
      new URL(`${t.baseUrl}/oidc`),
      m.client_id,
      { client_secret: m.client_secret },
      client.ClientSecretPost(m.client_secret),
      {
        execute: [client.allowInsecureRequests],
      },
    );
    expect((await exchangeWith(config)).access_token).toBeDefined();
    const basic = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    expect((await exchangeWith(basic)).access_token).toBeDefined();
    const wrong = await client.discovery(new URL(`${t.baseUrl}/oidc`), m.client_id, { client_secret: 'wrong' }, client.ClientSecretPost('wrong'), {
      execute: [client.allowInsecureRequests],
    });
    await expect(exchangeWith(wrong)).rejects.toMatchObject({ error: 'invalid_client' });
  });
});
