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

describe('merchant policy: signed requests and the mTLS subject', () => {
  it('refuses require_signed_request_object without keys to verify the objects (RFC 9101 §10.5)', () => {
    expect(merchantSettingProblems({ ...base, requireSignedRequestObject: true }, 'production')).toEqual({
      require_signed_request_object: [expect.stringContaining('jwks')],
    });
    expect(merchantSettingProblems({ ...base, requireSignedRequestObject: true, jwksUri: 'https://shop.example/jwks' }, 'production')).toEqual({});
  });

  it('refuses a tls_client_auth_subject_dn the comparison cannot read (RFC 8705 §2.1.2), takes dotted OIDs', () => {
    const mtls = { ...base, tokenEndpointAuthMethod: 'tls_client_auth' };
    expect(merchantSettingProblems({ ...mtls, tlsClientAuthSubjectDn: 'FOO=bar,C=NO' }, 'production')).toEqual({
      tls_client_auth_subject_dn: [expect.stringContaining('RFC 4514')],
    });
    expect(merchantSettingProblems({ ...mtls, tlsClientAuthSubjectDn: 'CN=rp,2.5.4.97=PSDNO-FSA-1,C=NO' }, 'production')).toEqual({});
  });
});
