import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { errorForMerchant, upstreamLogin } from '../support/upstream-login.js';
import { startUpstream, type TestUpstream } from '../support/upstream-provider.js';

const KARI = { sub: 'kari', claims: { given_name: 'Kari', family_name: 'Nordmann', birthdate: '1985-03-07' } };
const MAPPERS = [
  { type: 'copy', from: 'given_name' },
  { type: 'copy', from: 'family_name' },
  { type: 'date', from: 'birthdate', to: 'birthdate', format: 'DD.MM.YYYY' },
];
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'];

/**
 * The broker's own keys toward upstreams, end to end with a real upstream oidc-provider whose clients are
 * registered as an operator would: jwks_uri = our GET /its/eid/jwks.
 */
describe('upstream schemes with our keys: private_key_jwt, encrypted ID tokens', () => {
  let t: TestApp;
  let upstream: TestUpstream;
  let rp: client.Configuration;
  const admin = () => adminClient(t.baseUrl, t.adminToken);
  const loginCount = async () => Number((await t.dataSource.query('SELECT count(*)::int AS n FROM brokered_logins'))[0].n);
  const addScheme = async (id: string, fields: Record<string, unknown>) => {
    const res = await admin().call('POST', '/admin/v1/eid-schemes', {
      id,
      labels: { en_GB: id },
      environment: 'customer-test',
      issuer: upstream.issuer,
      scope: 'openid profile',
      userinfo: true,
      claim_mappers: MAPPERS,
      ...fields,
    });
    if (res.status !== 201) throw new Error(`scheme ${id}: ${res.status} ${res.text}`);
    return res.body as Record<string, unknown>;
  };
  const loginWith = (scheme: string) => upstreamLogin(t.baseUrl, rp, { login_hint: `eid:${scheme}` });

  beforeEach(() => {
    upstream.next = { action: 'login', user: 'kari', tamper: undefined };
  });

  beforeAll(async () => {
    t = await startTestApp();
    upstream = await startUpstream([KARI], `${t.baseUrl}/its/eid/callback`, {
      clients: (issuer) => [
        { client_id: 'broker-rs', token_endpoint_auth_method: 'private_key_jwt', jwks_uri: `${t.baseUrl}/its/eid/jwks` },
        {
          client_id: 'broker-es',
          token_endpoint_auth_method: 'private_key_jwt',
          token_endpoint_auth_signing_alg: 'ES256',
          jwks_uri: `${t.baseUrl}/its/eid/jwks`,
        },
        // Registered with keys that are not ours (the upstream's own): our assertion cannot verify there.
        { client_id: 'broker-foreign', token_endpoint_auth_method: 'private_key_jwt', jwks_uri: `${issuer}/jwks` },
        // ID tokens encrypted to our use "enc" keys, found at the same jwks_uri.
        {
          client_id: 'broker-rsa-enc',
          token_endpoint_auth_method: 'private_key_jwt',
          jwks_uri: `${t.baseUrl}/its/eid/jwks`,
          id_token_encrypted_response_alg: 'RSA-OAEP-256',
          id_token_encrypted_response_enc: 'A256GCM',
        },
        {
          client_id: 'broker-ecdh-enc',
          client_secret: 'upstream-secret-for-the-broker-0123456789',
          jwks_uri: `${t.baseUrl}/its/eid/jwks`,
          id_token_encrypted_response_alg: 'ECDH-ES+A256KW',
          id_token_encrypted_response_enc: 'A128CBC-HS256',
        },
      ],
    });
    await addScheme('pkjwt-rs', { client_id: 'broker-rs', token_endpoint_auth_method: 'private_key_jwt' });
    await addScheme('pkjwt-es', { client_id: 'broker-es', token_endpoint_auth_method: 'private_key_jwt', token_endpoint_auth_signing_alg: 'ES256' });
    await addScheme('pkjwt-foreign', { client_id: 'broker-foreign', token_endpoint_auth_method: 'private_key_jwt' });
    const rsaEnc = { id_token_encrypted_response_alg: 'RSA-OAEP-256', id_token_encrypted_response_enc: 'A256GCM' };
    await addScheme('enc-rsa', { client_id: 'broker-rsa-enc', token_endpoint_auth_method: 'private_key_jwt', ...rsaEnc });
    await addScheme('enc-ecdh', {
      client_id: 'broker-ecdh-enc',
      client_secret: 'upstream-secret-for-the-broker-0123456789',
      id_token_encrypted_response_alg: 'ECDH-ES+A256KW',
      id_token_encrypted_response_enc: 'A128CBC-HS256',
    });
    // We expect encryption; the upstream client does not encrypt.
    await addScheme('enc-missing', { client_id: 'broker-rs', token_endpoint_auth_method: 'private_key_jwt', ...rsaEnc });
    // We expect another content encryption than the upstream uses.
    await addScheme('enc-other', {
      client_id: 'broker-rsa-enc',
      token_endpoint_auth_method: 'private_key_jwt',
      id_token_encrypted_response_alg: 'RSA-OAEP-256',
      id_token_encrypted_response_enc: 'A128GCM',
    });
    const merchant = await admin().createMerchant({
      name: 'Shop',
      redirect_uris: [REDIRECT_URI],
      eid_schemes: ['pkjwt-rs', 'pkjwt-es', 'pkjwt-foreign', 'enc-rsa', 'enc-ecdh', 'enc-missing', 'enc-other'],
    });
    rp = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
  });
  afterAll(async () => {
    await upstream?.close();
    await t?.close();
  });

  it('publishes our public keys at /its/eid/jwks, never a private member', async () => {
    const res = await fetch(`${t.baseUrl}/its/eid/jwks`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/jwk-set+json');
    const { keys } = (await res.json()) as { keys: Array<Record<string, string>> };
    expect(
      keys
        .filter((k) => k.use === 'sig')
        .map((k) => k.alg)
        .sort(),
    ).toEqual(['ES256', 'RS256']);
    expect(
      keys
        .filter((k) => k.use === 'enc')
        .map((k) => `${k.kty}:${k.alg ?? k.crv}`)
        .sort(),
    ).toEqual(['EC:P-256', 'RSA:RSA-OAEP-256']);
    for (const key of keys) {
      expect(key.kid).toBeTruthy();
      for (const member of PRIVATE_MEMBERS) expect(key).not.toHaveProperty(member);
    }
  });

  it('shows the admin what to register: redirect URI, jwks_uri, the assertion algorithm', async () => {
    const res = await admin().call('GET', '/admin/v1/eid-schemes/pkjwt-es');
    expect(res.body).toMatchObject({
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ES256',
      client_secret_set: false,
      redirect_uri: `${t.baseUrl}/its/eid/callback`,
      jwks_uri: `${t.baseUrl}/its/eid/jwks`,
    });
  });

  const logins: Record<string, string> = {
    'pkjwt-rs': 'private_key_jwt, RS256',
    'pkjwt-es': 'private_key_jwt, ES256',
    'enc-rsa': 'private_key_jwt and an ID token encrypted to our RSA-OAEP-256 key',
    'enc-ecdh': 'client_secret_basic and an ID token encrypted to our ECDH-ES+A256KW key',
  };
  for (const [scheme, how] of Object.entries(logins)) {
    it(`logs in through the upstream with ${how}: mapped claims reach the merchant`, async () => {
      const { request, page } = await loginWith(scheme);
      if (!page.location) throw new Error(`${page.status} ${page.html.slice(-600)}`);
      const tokens = await client.authorizationCodeGrant(rp, new URL(page.location), {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
      });
      expect(tokens.claims()).toMatchObject({ eid_scheme: scheme, given_name: 'Kari', family_name: 'Nordmann', birthdate: '07.03.1985' });
    });
  }

  it('an upstream that does not know our key refuses the code exchange: access_denied, nothing stored', async () => {
    const before = await loginCount();
    const { browser, page } = await loginWith('pkjwt-foreign');
    expect((await errorForMerchant(browser, page)).get('error')).toBe('access_denied');
    expect(await loginCount()).toBe(before);
  });
  it('refuses a scheme half-configured for encryption (alg without enc), with the reason', async () => {
    const res = await admin().call('PATCH', '/admin/v1/eid-schemes/pkjwt-rs', { id_token_encrypted_response_alg: 'RSA-OAEP-256' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('id_token_encrypted_response_enc');
  });

  describe('an ID token that is not encrypted to our key as agreed ends in access_denied, with nothing stored', () => {
    const cases: Array<[string, string, 'plain' | 'foreign-key' | undefined]> = [
      ['sent in plain, though the scheme requires encryption', 'enc-rsa', 'plain'],
      ['encrypted to a key that is not ours (our kid in the header)', 'enc-rsa', 'foreign-key'],
      ['from an upstream that does not encrypt at all', 'enc-missing', undefined],
      ['encrypted with another content encryption than agreed', 'enc-other', undefined],
    ];
    for (const [what, scheme, tamper] of cases) {
      it(what, async () => {
        upstream.next.tamper = tamper;
        const before = await loginCount();
        const { browser, page } = await loginWith(scheme);
        expect((await errorForMerchant(browser, page)).get('error')).toBe('access_denied');
        expect(await loginCount()).toBe(before);
      });
    }
  });
});
