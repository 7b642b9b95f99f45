import { merchantSettingProblems, type MerchantSettings } from './merchant-policy.js';
import { normalizeSamlSettings } from './saml-settings.js';

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
const saml = (fields: Record<string, unknown>) => normalizeSamlSettings({ entity_id: 'https://shop.example/sp', ...fields });
const problems = (s: Partial<MerchantSettings>, env: 'customer-test' | 'production' = 'customer-test') => merchantSettingProblems({ ...base, ...s }, env);

describe('merchant policy: SAML relying-party settings', () => {
  it('defaults the released scope to openid and accepts a consumer URL or an artifact receiver', () => {
    expect(saml({ assertion_consumer_url: 'https://shop.example/acs' })).toEqual({
      entity_id: 'https://shop.example/sp',
      assertion_consumer_url: 'https://shop.example/acs',
      artifact_receiver_url: null,
      certificate: null,
      scope: 'openid',
    });
    expect(problems({ saml: saml({ assertion_consumer_url: 'https://shop.example/acs' }) })).toEqual({});
    expect(problems({ saml: saml({ artifact_receiver_url: 'https://shop.example/art' }) })).toEqual({});
  });

  it('needs at least one binding endpoint', () => {
    expect(Object.keys(problems({ saml: saml({}) }))).toEqual(['saml']);
  });

  it('applies the redirect URI rule to the endpoints: https, plain http only for localhost in customer-test', () => {
    const local = saml({ assertion_consumer_url: 'http://localhost:9000/acs', artifact_receiver_url: 'http://127.0.0.1:9000/art' });
    expect(problems({ saml: local })).toEqual({});
    expect(Object.keys(problems({ saml: local }, 'production')).sort()).toEqual(['saml.artifact_receiver_url', 'saml.assertion_consumer_url']);
    expect(Object.keys(problems({ saml: saml({ assertion_consumer_url: 'http://shop.example/acs' }) }))).toEqual(['saml.assertion_consumer_url']);
  });

  it('releases only known scopes, with openid, within the merchant scope, never offline_access', () => {
    const acs = { assertion_consumer_url: 'https://shop.example/acs' };
    expect(problems({ saml: saml({ ...acs, scope: 'openid profile ageverify18' }) })).toEqual({});
    expect(problems({ saml: saml({ ...acs, scope: 'openid wizard' }) })['saml.scope']).toEqual(['wizard is not a scope of this service']);
    expect(problems({ saml: saml({ ...acs, scope: 'profile' }) })['saml.scope']).toEqual(['must include openid']);
    expect(problems({ saml: saml({ ...acs, scope: 'openid offline_access' }) })['saml.scope']).toEqual(['offline_access has no meaning in an assertion']);
    expect(problems({ scope: 'openid profile', saml: saml({ ...acs, scope: 'openid ssn' }) })['saml.scope']).toEqual(["ssn is not in the merchant's scope"]);
  });

  it('refuses a certificate that does not parse', () => {
    const bad = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----';
    expect(problems({ saml: saml({ assertion_consumer_url: 'https://shop.example/acs', certificate: bad }) })['saml.certificate']).toEqual([
      'must be one X.509 certificate in PEM',
    ]);
  });
});
