import { exportJWK, importJWK, SignJWT, type CryptoKey } from 'jose';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import {
  clientAssertion,
  createFapiMerchant,
  FAPI_REDIRECT_URI,
  fapiConfiguration,
  type FapiMerchant,
  postForm,
  pushedParameters,
} from '../support/fapi2-client.js';
import { firstResponse, loginWithTestEid } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { OidcProviderService } from '../../src/oidc/provider/oidc-provider.service.js';

/**
 * A merchant of the FAPI 2.0 Security Profile (security_profile fapi2), as a bank's relying party meets it: openid-client
 * logs in with PAR, PKCE, private_key_jwt and DPoP; then, rule by rule, the request a misbehaving client would send and
 * the refusal the profile or the RFC names. The default profile's merchants are covered, unchanged, by the oidc-* tests.
 */
describe('a fapi2 merchant (FAPI 2.0 Security Profile)', () => {
  let t: TestApp;
  let issuer: string;
  let admin: ReturnType<typeof adminClient>;
  let bank: FapiMerchant;
  let config: client.Configuration;
  let parEndpoint: string;

  /** A login through PAR up to the merchant's redirect URI, with or without a DPoP key bound at PAR. */
  const loginThroughPar = async (dpop?: client.DPoPHandle) => {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const parameters = {
      redirect_uri: FAPI_REDIRECT_URI,
      scope: 'openid profile ssn offline_access',
      prompt: 'consent',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    };
    const url = await client.buildAuthorizationUrlWithPAR(config, parameters, dpop ? { DPoP: dpop } : undefined);
    const { callback } = await loginWithTestEid(t.baseUrl, url);
    return { callback, checks: { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce } };
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { AUTHORIZATION_CODE_TTL_SECONDS: '300' } });
    issuer = `${t.baseUrl}/oidc`;
    admin = adminClient(t.baseUrl, t.adminToken);
    bank = await createFapiMerchant(admin);
    config = await fapiConfiguration(issuer, bank);
    parEndpoint = config.serverMetadata().pushed_authorization_request_endpoint!;
  });
  afterAll(() => t?.close());

  it('publishes what a FAPI client library reads: PAR, iss in responses (RFC 9207 §3), DPoP algorithms (RFC 9449 §5.1), S256', () => {
    const metadata = config.serverMetadata();
    expect(metadata.pushed_authorization_request_endpoint).toBe(`${issuer}/par`);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    expect(metadata.dpop_signing_alg_values_supported).toContain('ES256');
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.token_endpoint_auth_methods_supported).toContain('private_key_jwt');
  });

  it('logs in with PAR, PKCE, private_key_jwt and DPoP; user-info with a DPoP proof; refreshes; revokes', async () => {
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const { callback, checks } = await loginThroughPar(dpop);
    // RFC 9207 §2 (FAPI 2.0 SP 5.3.2.2 "shall return an iss parameter in the authorization response").
    expect(callback.searchParams.get('iss')).toBe(issuer);
    const tokens = await client.authorizationCodeGrant(config, callback, checks, undefined, { DPoP: dpop });
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    const sub = tokens.claims()!.sub;
    expect(await client.fetchUserInfo(config, tokens.access_token, sub, { DPoP: dpop })).toMatchObject({ sub, document_number: 'L898902C3' });

    expect(tokens.refresh_token).toBeDefined();
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: dpop });
    expect(refreshed.token_type.toLowerCase()).toBe('dpop');
    expect((await client.fetchUserInfo(config, refreshed.access_token, sub, { DPoP: dpop })).sub).toBe(sub);
    // FAPI 2.0 SP 5.3.2.1: no refresh token rotation; the token stays bound to the merchant's client authentication.
    const stillValid = refreshed.refresh_token ?? tokens.refresh_token!;
    expect(stillValid).toBe(tokens.refresh_token);

    await client.tokenRevocation(config, stillValid);
    await expect(client.refreshTokenGrant(config, stillValid, undefined, { DPoP: dpop })).rejects.toMatchObject({ error: 'invalid_grant' });

    // FAPI 2.0 SP 5.3.2.2 "shall reject an authorization code if it has been previously used" (RFC 6749 §4.1.2).
    await expect(client.authorizationCodeGrant(config, callback, checks, undefined, { DPoP: dpop })).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('RFC 9449 §7.1: a DPoP-bound access token sent as a Bearer token to user-info is refused (invalid_token)', async () => {
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const { callback, checks } = await loginThroughPar(dpop);
    const tokens = await client.authorizationCodeGrant(config, callback, checks, undefined, { DPoP: dpop });
    const res = await fetch(config.serverMetadata().userinfo_endpoint!, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('FAPI 2.0 SP 5.3.2.1 "shall only issue sender-constrained access tokens": a code exchanged without a DPoP proof is refused', async () => {
    const { callback, checks } = await loginThroughPar();
    await expect(client.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({ error: 'invalid_dpop_proof' });
    // The proof was all that was missing: the same code (not consumed by the refusal) with a proof gets DPoP-bound tokens.
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const tokens = await client.authorizationCodeGrant(config, callback, checks, undefined, { DPoP: dpop });
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
  });

  it('FAPI 2.0 SP 5.3.2.2 "shall reject authorization requests sent without PAR": refused at the authorization endpoint (invalid_request)', async () => {
    const url = client.buildAuthorizationUrl(config, await pushedParameters());
    const page = await firstResponse(t.baseUrl, url);
    expect(page.status).toBe(303); // SP 5.3.2.2: "shall not use the HTTP 307 status code", "should use 303"
    const answer = new URL(page.location!);
    expect(`${answer.origin}${answer.pathname}`).toBe(FAPI_REDIRECT_URI);
    expect(answer.searchParams.get('error')).toBe('invalid_request');
    expect(answer.searchParams.get('error_description')).toMatch(/Pushed Authorization Request must be used/);
    expect(answer.searchParams.get('iss')).toBe(issuer);
  });

  it('FAPI 2.0 SP 5.3.2.1 "authorization codes with a maximum lifetime of 60 seconds": capped though the setting is 300 s', async () => {
    const { callback } = await loginThroughPar();
    const code = await t.app.get(OidcProviderService).engine.AuthorizationCode.find(callback.searchParams.get('code')!);
    expect(code!.exp! - code!.iat!).toBe(60);
  });

  it('FAPI 2.0 SP 5.3.2.1 clock rule: a client assertion or request object with iat or nbf more than 60 s ahead is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const assertionAt = async (claims: Record<string, number>) => {
      const assertion = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: bank.kid })
        .setIssuer(bank.clientId)
        .setSubject(bank.clientId)
        .setAudience(issuer)
        .setJti(client.randomState())
        .setExpirationTime(now + 300)
        .sign(bank.privateKey);
      const form = { client_id: bank.clientId, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion };
      return postForm(parEndpoint, { ...(await pushedParameters()), ...form });
    };
    // "should accept … between 0 and 10 seconds in the future"
    expect((await assertionAt({ iat: now + 10 })).status).toBe(201);
    for (const ahead of [{ iat: now + 120 }, { iat: now, nbf: now + 120 }] as Record<string, number>[])
      expect(await assertionAt(ahead)).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const request = await new SignJWT({ ...(await pushedParameters()), client_id: bank.clientId })
      .setProtectedHeader({ alg: 'ES256', kid: bank.kid })
      .setIssuer(bank.clientId)
      .setAudience(issuer)
      .setIssuedAt(now + 120)
      .setNotBefore(now)
      .setExpirationTime(now + 300)
      .sign(bank.privateKey);
    const res = await postForm(parEndpoint, { request, ...(await clientAssertion(bank, issuer)) });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request_object', error_description: expect.stringMatching(/iat is more than 60 s/) } });
  });

  it('RFC 9126 §2.2 / FAPI 2.0 SP 5.3.2.2: the pushed request lives at most 60 s', async () => {
    const res = await postForm(parEndpoint, { ...(await pushedParameters()), ...(await clientAssertion(bank, issuer)) });
    expect(res.status).toBe(201);
    expect(res.body.expires_in).toBeLessThanOrEqual(60);
  });

  it('FAPI 2.0 SP 5.3.2.2 "shall require PKCE with S256": a pushed request without PKCE, or with plain, is refused (invalid_request)', async () => {
    for (const [pkce, why] of [
      [{ code_challenge: undefined, code_challenge_method: undefined }, /requires PKCE/],
      [{ code_challenge: client.randomPKCECodeVerifier(), code_challenge_method: 'plain' }, /code_challenge_method/],
    ] as const) {
      const res = await postForm(parEndpoint, { ...(await pushedParameters(pkce)), ...(await clientAssertion(bank, issuer)) });
      expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: expect.stringMatching(why) } });
    }
  });

  it('FAPI 2.0 SP 5.3.2.2 "shall require the value of response_type to be code": code id_token is refused (unsupported_response_type)', async () => {
    const res = await postForm(parEndpoint, { ...(await pushedParameters({ response_type: 'code id_token' })), ...(await clientAssertion(bank, issuer)) });
    expect(res).toMatchObject({ status: 400, body: { error: 'unsupported_response_type' } });
  });

  it('FAPI 2.0 SP 5.3.2.2 "shall reject pushed authorization requests without client authentication" (invalid_client)', async () => {
    const res = await postForm(parEndpoint, { ...(await pushedParameters()), client_id: bank.clientId });
    expect(res).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('FAPI 2.0 SP 5.3.2.2 "shall require the redirect_uri parameter in pushed authorization requests" (invalid_request)', async () => {
    const res = await postForm(parEndpoint, { ...(await pushedParameters({ redirect_uri: undefined })), ...(await clientAssertion(bank, issuer)) });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it("FAPI 2.0 SP 5.3.2.1 (private_key_jwt or mTLS): the merchant's client secret is refused (invalid_client)", async () => {
    const basic = `Basic ${Buffer.from(`${bank.clientId}:${bank.clientSecret}`).toString('base64')}`;
    const res = await postForm(parEndpoint, await pushedParameters(), { authorization: basic });
    expect(res).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('FAPI 2.0 SP 5.3.2.1 "shall only accept its issuer identifier as the aud": an assertion for the token endpoint is refused (invalid_client)', async () => {
    const res = await postForm(parEndpoint, { ...(await pushedParameters()), ...(await clientAssertion(bank, config.serverMetadata().token_endpoint!)) });
    expect(res).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('FAPI 2.0 SP 5.4.1 (PS256, ES256): an RS256 client assertion made with the registered RSA key is refused (invalid_client)', async () => {
    const rsaBank = await createFapiMerchant(admin, 'PS256', 'FAPI bank RSA');
    const accepted = await postForm(parEndpoint, { ...(await pushedParameters()), ...(await clientAssertion(rsaBank, issuer, 'PS256')) });
    expect(accepted.status).toBe(201);
    const sameKeyAsRs256 = (await importJWK(await exportJWK(rsaBank.privateKey), 'RS256')) as CryptoKey;
    const refused = await postForm(parEndpoint, { ...(await pushedParameters()), ...(await clientAssertion(rsaBank, issuer, 'RS256', sameKeyAsRs256)) });
    expect(refused).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('FAPI 2.0 SP 5.4.1 (PS256, ES256): a request object signed RS256 inside PAR is refused (invalid_request_object)', async () => {
    const rsaBank = await createFapiMerchant(admin, 'PS256', 'FAPI bank RSA objects');
    const sameKeyAsRs256 = (await importJWK(await exportJWK(rsaBank.privateKey), 'RS256')) as CryptoKey;
    const request = await new SignJWT({ ...(await pushedParameters()), client_id: rsaBank.clientId })
      .setProtectedHeader({ alg: 'RS256', kid: rsaBank.kid })
      .setIssuer(rsaBank.clientId)
      .setAudience(issuer)
      .setIssuedAt()
      .setNotBefore('0s')
      .setExpirationTime('1m')
      .sign(sameKeyAsRs256);
    const res = await postForm(parEndpoint, { request, ...(await clientAssertion(rsaBank, issuer, 'PS256')) });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request_object', error_description: expect.stringMatching(/preregistered alg/) } });
  });

  describe('registration through the admin API', () => {
    const keyed = () => ({
      ...bankFields(),
      jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' }] },
    });
    const bankFields = () => ({
      name: 'Bank',
      redirect_uris: [FAPI_REDIRECT_URI],
      security_profile: 'fapi2',
      token_endpoint_auth_method: 'private_key_jwt',
      id_token_signed_response_alg: 'ES256',
    });
    const refusal = async (fields: Record<string, unknown>) => {
      const res = await admin.call('POST', '/admin/v1/merchants', fields);
      expect(res.status).toBe(400);
      return res.body.fields as Record<string, string[]>;
    };

    it('shows the profile: default for a merchant that names none, fapi2 as set', async () => {
      const plain = await admin.createMerchant({ name: 'Shop', redirect_uris: ['http://localhost/cb'] });
      expect(plain.security_profile).toBe('default');
      expect((await admin.call('GET', `/admin/v1/merchants/${bank.clientId}`)).body.security_profile).toBe('fapi2');
    });

    it('FAPI 2.0 SP 5.3.2.2 "shall not allow redirect URIs that use the http scheme": refused, localhost in customer-test included', async () => {
      expect((await refusal({ ...keyed(), redirect_uris: ['http://localhost/cb'] })).redirect_uris).toEqual([expect.stringMatching(/fapi2 needs https/)]);
    });

    it('FAPI 2.0 SP 5.3.2.1 (private_key_jwt or mTLS, no shared secret): client_secret_basic and a keyless private_key_jwt are refused', async () => {
      expect(await refusal({ ...keyed(), token_endpoint_auth_method: 'client_secret_basic' })).toHaveProperty('token_endpoint_auth_method');
      expect(await refusal(bankFields())).toHaveProperty('jwks');
    });

    it('FAPI 2.0 SP 5.4.1 (PS256, ES256): an RS256 request object algorithm, and the default RS256 ID token, are refused', async () => {
      expect((await refusal({ ...keyed(), request_object_signing_alg: 'RS256' })).request_object_signing_alg).toEqual([
        expect.stringMatching(/ES256 or PS256/),
      ]);
      const { id_token_signed_response_alg: _es256, ...rs256IdTokens } = keyed();
      expect(await refusal(rs256IdTokens)).toEqual({ id_token_signed_response_alg: [expect.stringMatching(/fapi2 needs ES256/)] });
    });

    it('an unknown profile is refused; a merchant turned fapi2 later meets the same rules', async () => {
      expect(await refusal({ ...keyed(), security_profile: 'fapi1' })).toHaveProperty('security_profile');
      const shop = await admin.createMerchant({ name: 'Shop', redirect_uris: ['https://shop.example/cb'] });
      const res = await admin.call('PATCH', `/admin/v1/merchants/${shop.client_id}`, { security_profile: 'fapi2' });
      expect(res).toMatchObject({ status: 400, body: { fields: { token_endpoint_auth_method: [expect.any(String)] } } });
    });
  });
});
