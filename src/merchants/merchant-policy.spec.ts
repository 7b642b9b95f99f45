import { merchantSettingProblems, type MerchantSettings } from './merchant-policy.js';

const base: MerchantSettings = {
  redirectUris: ['https://shop.example/cb'],
  scope: null,
  tokenEndpointAuthMethod: 'client_secret_basic',
  idTokenEncryptedResponseAlg: null,
  userinfoEncryptedResponseAlg: null,
  jwksUri: null,
  jwks: null,
  requestObjectSigningAlg: null,
  backchannelTokenDeliveryMode: 'poll',
  backchannelClientNotificationEndpoint: null,
  requestUris: [],
  encryptionKeyId: null,
  requestObjectKeyId: null,
};

describe('merchant policy: fetched URLs and key ids', () => {
  it('allows plain http request_uris and jwks_uri only for localhost, and only in customer-test', () => {
    const local = { ...base, requestUris: ['http://localhost:8080/req.jwt'], jwksUri: 'http://127.0.0.1:9000/jwks' };
    expect(merchantSettingProblems(local, 'customer-test')).toEqual({});
    expect(Object.keys(merchantSettingProblems(local, 'production')).sort()).toEqual(['jwks_uri', 'request_uris']);
    const remote = { ...base, requestUris: ['http://shop.example/req.jwt'], jwksUri: 'http://shop.example/jwks' };
    expect(Object.keys(merchantSettingProblems(remote, 'customer-test')).sort()).toEqual(['jwks_uri', 'request_uris']);
  });

  it('refuses a key id that is not in the inline set, or that has no set at all; a jwks_uri set is checked at use', () => {
    const jwks = { keys: [{ kty: 'RSA', kid: 'a', n: 'x', e: 'AQAB' }] };
    expect(merchantSettingProblems({ ...base, jwks, requestObjectKeyId: 'a' }, 'customer-test')).toEqual({});
    expect(Object.keys(merchantSettingProblems({ ...base, jwks, encryptionKeyId: 'b' }, 'customer-test'))).toEqual(['encryption_key_id']);
    expect(Object.keys(merchantSettingProblems({ ...base, requestObjectKeyId: 'a' }, 'customer-test'))).toEqual(['request_object_key_id']);
    expect(merchantSettingProblems({ ...base, jwksUri: 'https://shop.example/jwks', requestObjectKeyId: 'z' }, 'production')).toEqual({});
  });
});

describe('merchant policy: DPoP-bound access tokens (RFC 9449 §5.2)', () => {
  it('takes them with poll and ping, and refuses them with push, whose tokens no token request binds', () => {
    const endpoint = 'https://shop.example/ciba';
    expect(merchantSettingProblems({ ...base, dpopBoundAccessTokens: true }, 'production')).toEqual({});
    expect(
      merchantSettingProblems(
        { ...base, dpopBoundAccessTokens: true, backchannelTokenDeliveryMode: 'ping', backchannelClientNotificationEndpoint: endpoint },
        'production',
      ),
    ).toEqual({});
    const push = merchantSettingProblems(
      { ...base, dpopBoundAccessTokens: true, backchannelTokenDeliveryMode: 'push', backchannelClientNotificationEndpoint: endpoint },
      'production',
    );
    expect(push).toEqual({ dpop_bound_access_tokens: [expect.stringContaining('push delivery')] });
  });
});
