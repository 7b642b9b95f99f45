import { decodeJwt, SignJWT } from 'jose';
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
import { loginWithTestEid } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A fapi2 merchant with FAPI 2.0 Message Signing (require_signed_request_object, response_modes ["jwt"]): openid-client
 * pushes a signed request object (JAR inside PAR) and verifies the signed authorization response (JARM); then, clause by
 * clause of Message Signing §5.3.1 and §5.4.1, the request a misbehaving client would send and the refusal it gets.
 */
describe('a fapi2 merchant with message signing (FAPI 2.0 Message Signing)', () => {
  let t: TestApp;
  let issuer: string;
  let admin: ReturnType<typeof adminClient>;
  let bank: FapiMerchant;
  let config: client.Configuration;
  let parEndpoint: string;

  /** A request object as the test makes it: the claims a well-behaved client sends, each overridable (undefined drops it). */
  const requestObject = async (claims: Record<string, unknown> = {}, alg = 'ES256') => {
    const now = Math.floor(Date.now() / 1000);
    const all: Record<string, unknown> = {
      ...(await pushedParameters({ response_mode: 'jwt' })),
      client_id: bank.clientId,
      iss: bank.clientId,
      aud: issuer,
      iat: now,
      nbf: now,
      exp: now + 60,
      ...claims,
    };
    const payload = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
    if (alg === 'none')
      return `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`;
    return new SignJWT(payload).setProtectedHeader({ alg, kid: bank.kid, typ: 'oauth-authz-req+jwt' }).sign(bank.privateKey);
  };
  const push = async (form: Record<string, string>) => postForm(parEndpoint, { ...form, ...(await clientAssertion(bank, issuer)) });

  beforeAll(async () => {
    t = await startTestApp();
    issuer = `${t.baseUrl}/oidc`;
    admin = adminClient(t.baseUrl, t.adminToken);
    bank = await createFapiMerchant(admin, 'ES256', 'FAPI bank signing', { require_signed_request_object: true, response_modes: ['jwt'] });
    config = await fapiConfiguration(issuer, bank);
    client.useJwtResponseMode(config);
    parEndpoint = config.serverMetadata().pushed_authorization_request_endpoint!;
  });
  afterAll(() => t?.close());

  it('publishes JARM (response_modes_supported jwt, authorization_signing_alg_values_supported) and no response encryption', () => {
    const metadata = config.serverMetadata();
    expect(metadata.response_modes_supported).toEqual(expect.arrayContaining(['jwt', 'query.jwt', 'form_post.jwt']));
    expect(metadata.authorization_signing_alg_values_supported).toContain('ES256');
    expect(metadata.request_object_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'PS256']));
    expect(metadata.authorization_encryption_alg_values_supported ?? []).toEqual([]);
  });

  it('openid-client logs in with a signed request object inside PAR and a signed (JARM) response; DPoP-bound tokens', async () => {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const parameters = {
      redirect_uri: FAPI_REDIRECT_URI,
      scope: 'openid profile',
      response_mode: 'jwt',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    };
    const jar = await client.buildAuthorizationUrlWithJAR(config, parameters, { key: bank.privateKey, kid: bank.kid });
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const url = await client.buildAuthorizationUrlWithPAR(config, jar.searchParams, { DPoP: dpop });
    const { callback } = await loginWithTestEid(t.baseUrl, url);
    // JARM §4.1 and Message Signing §5.4.1's note: every response parameter, iss included, is inside the signed JWT.
    expect([...callback.searchParams.keys()]).toEqual(['response']);
    const response = decodeJwt(callback.searchParams.get('response')!);
    expect(response).toMatchObject({ iss: issuer, aud: bank.clientId, state, code: expect.any(String) });
    const tokens = await client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce },
      undefined,
      {
        DPoP: dpop,
      },
    );
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    expect(tokens.claims()).toMatchObject({ iss: issuer, aud: bank.clientId, nonce });
  });

  it('Message Signing §5.3.1 (1) "require use of … signed request objects … at the PAR endpoint": plain parameters are refused', async () => {
    const res = await push(await pushedParameters({ response_mode: 'jwt' }));
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: expect.stringMatching(/Request Object must be used/) } });
  });

  it('Message Signing §5.3.1 (1) "verify": an unsigned (alg none) request object, or one signed with another key, is refused', async () => {
    expect(await push({ request: await requestObject({}, 'none') })).toMatchObject({ status: 400, body: { error: 'invalid_request_object' } });
    const stranger = await createFapiMerchant(admin, 'ES256', 'Another bank');
    const forged = await new SignJWT({ ...(await pushedParameters({ response_mode: 'jwt' })), client_id: bank.clientId, iss: bank.clientId, aud: issuer })
      .setProtectedHeader({ alg: 'ES256', kid: bank.kid })
      .setIssuedAt()
      .setNotBefore('0s')
      .setExpirationTime('1m')
      .sign(stranger.privateKey);
    expect(await push({ request: forged })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request_object', error_description: 'could not validate Request Object' },
    });
  });

  it("Message Signing §5.3.1 (2): a request object whose aud is not the issuer (the PAR endpoint's URL) is refused", async () => {
    expect(await push({ request: await requestObject({ aud: parEndpoint }) })).toMatchObject({ status: 400, body: { error: 'invalid_request_object' } });
    // "be, or be an array containing": an array with the issuer is accepted.
    expect((await push({ request: await requestObject({ aud: [issuer, 'https://other.example'] }) })).status).toBe(201);
  });

  it('Message Signing §5.3.1 (3): a request object without nbf, or with nbf more than 60 min in the past, is refused', async () => {
    const missing = await push({ request: await requestObject({ nbf: undefined }) });
    expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_request_object', error_description: expect.stringMatching(/'nbf'/) } });
    const now = Math.floor(Date.now() / 1000);
    const stale = await push({ request: await requestObject({ nbf: now - 3700, iat: now - 3700, exp: now + 60 }) });
    // exp lies in the future, so the engine's 60-minute bound between nbf and exp is what refuses it.
    expect(stale).toMatchObject({ status: 400, body: { error: 'invalid_request_object', error_description: expect.stringMatching(/too far/) } });
  });

  it('Message Signing §5.3.1 (4): a request object without exp, or living more than 60 min after nbf, is refused', async () => {
    const missing = await push({ request: await requestObject({ exp: undefined }) });
    expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_request_object', error_description: expect.stringMatching(/'exp'/) } });
    const now = Math.floor(Date.now() / 1000);
    const long = await push({ request: await requestObject({ nbf: now, exp: now + 3601 }) });
    expect(long).toMatchObject({ status: 400, body: { error: 'invalid_request_object', error_description: expect.stringMatching(/too far/) } });
  });

  it('Message Signing §5.3.1 (5): the typ oauth-authz-req+jwt is accepted, as is a request object without typ', async () => {
    expect((await push({ request: await requestObject() })).status).toBe(201);
    const untyped = await new SignJWT({ ...(await pushedParameters({ response_mode: 'jwt' })), client_id: bank.clientId })
      .setProtectedHeader({ alg: 'ES256', kid: bank.kid })
      .setIssuer(bank.clientId)
      .setAudience(issuer)
      .setIssuedAt()
      .setNotBefore('0s')
      .setExpirationTime('1m')
      .sign(bank.privateKey);
    expect((await push({ request: untyped })).status).toBe(201);
  });

  it('Message Signing §5.4.1 "require use of … JARM": a request for a plain query response is refused', async () => {
    for (const mode of ['query', undefined]) {
      const res = await push({ request: await requestObject({ response_mode: mode }) });
      expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: expect.stringMatching(/response_mode/) } });
    }
  });

  describe('registration through the admin API', () => {
    it('shows the settings; a merchant without keys cannot require signed request objects; unknown response modes are refused', async () => {
      const shown = (await admin.call('GET', `/admin/v1/merchants/${bank.clientId}`)).body;
      expect(shown).toMatchObject({ require_signed_request_object: true, response_modes: ['jwt'] });
      const plain = await admin.createMerchant({ name: 'Shop', redirect_uris: ['https://shop.example/cb'] });
      expect(plain).toMatchObject({ require_signed_request_object: false, response_modes: null });
      const keyless = await admin.call('PATCH', `/admin/v1/merchants/${plain.client_id}`, { require_signed_request_object: true });
      expect(keyless).toMatchObject({ status: 400, body: { fields: { require_signed_request_object: [expect.stringMatching(/jwks/)] } } });
      for (const modes of [['web_message'], [], ['jwt', 'jwt']]) {
        const res = await admin.call('PATCH', `/admin/v1/merchants/${plain.client_id}`, { response_modes: modes });
        expect(res).toMatchObject({ status: 400, body: { fields: { response_modes: expect.any(Array) } } });
      }
    });
  });
});
