import { merchantSettingProblems, type MerchantSettings } from './merchant-policy.js';
import { FAPI2_AUTH_METHODS } from './fapi2-policy.js';

const ecKey = { kty: 'EC', crv: 'P-256', kid: 'k1', x: 'x', y: 'y' };
const bank: MerchantSettings = {
  securityProfile: 'fapi2',
  redirectUris: ['https://bank.example/cb'],
  scope: null,
  tokenEndpointAuthMethod: 'private_key_jwt',
  idTokenEncryptedResponseAlg: null,
  userinfoEncryptedResponseAlg: null,
  jwksUri: null,
  jwks: { keys: [ecKey] },
  requestObjectSigningAlg: null,
  backchannelTokenDeliveryMode: 'poll',
  backchannelClientNotificationEndpoint: null,
  requestUris: [],
  encryptionKeyId: null,
  requestObjectKeyId: null,
  idTokenSignedResponseAlg: 'ES256',
};
const problemsOf = (s: Partial<MerchantSettings>, env: 'customer-test' | 'production' = 'customer-test') => merchantSettingProblems({ ...bank, ...s }, env);

describe('merchant policy: the FAPI 2.0 profile (FAPI 2.0 SP 5.3.2.1, 5.3.2.2, 5.4.1)', () => {
  it('accepts a fapi2 merchant with private_key_jwt, its keys inline or at a jwks_uri, and https redirect URIs', () => {
    expect(problemsOf({})).toEqual({});
    expect(problemsOf({ jwks: null, jwksUri: 'https://bank.example/jwks' }, 'production')).toEqual({});
    expect(problemsOf({ requestObjectSigningAlg: 'PS256', backchannelAuthenticationRequestSigningAlg: 'ES256' })).toEqual({});
  });

  it('refuses every client secret method, and private_key_jwt without keys', () => {
    for (const method of ['client_secret_basic', 'client_secret_post', 'client_secret_jwt'])
      expect(Object.keys(problemsOf({ tokenEndpointAuthMethod: method }))).toEqual(['token_endpoint_auth_method']);
    expect(problemsOf({ jwks: null })).toEqual({ jwks: [expect.stringMatching(/needs jwks or jwks_uri/)], token_endpoint_auth_method: [expect.any(String)] });
  });

  it('lists only methods this service offers (private_key_jwt; the mTLS names once they are offered)', () => {
    expect(FAPI2_AUTH_METHODS).toContain('private_key_jwt');
    expect(FAPI2_AUTH_METHODS.every((m) => ['private_key_jwt', 'tls_client_auth', 'self_signed_tls_client_auth'].includes(m))).toBe(true);
  });

  it("refuses http redirect URIs, customer-test's localhost included (no loopback exception for web merchants)", () => {
    expect(problemsOf({ redirectUris: ['http://localhost:3000/cb'] })).toEqual({ redirect_uris: [expect.stringMatching(/fapi2 needs https/)] });
    // The default profile keeps customer-test's localhost.
    expect(problemsOf({ securityProfile: 'default', redirectUris: ['http://localhost:3000/cb'] })).toEqual({});
  });

  it('refuses algorithms below the list: RS256 request objects and CIBA requests, keys marked RS256 or HS256', () => {
    expect(Object.keys(problemsOf({ requestObjectSigningAlg: 'RS256', backchannelAuthenticationRequestSigningAlg: 'RS256' })).sort()).toEqual([
      'backchannel_authentication_request_signing_alg',
      'request_object_signing_alg',
    ]);
    expect(Object.keys(problemsOf({ jwks: { keys: [{ ...ecKey, alg: 'RS256' }] } }))).toEqual(['jwks']);
    expect(problemsOf({ jwks: { keys: [{ ...ecKey, alg: 'ES256' }] } })).toEqual({});
    expect(Object.keys(problemsOf({ idTokenSignedResponseAlg: 'RS256' }))).toEqual(['id_token_signed_response_alg']);
  });

  it('leaves a merchant of the default profile as it was', () => {
    expect(
      problemsOf({
        securityProfile: undefined,
        tokenEndpointAuthMethod: 'client_secret_basic',
        requestObjectSigningAlg: 'RS256',
        idTokenSignedResponseAlg: 'RS256',
      }),
    ).toEqual({});
  });
});
