import type { KoaContextWithOIDC } from 'oidc-provider';
import type { MerchantEntity } from '../../merchants/merchant.entity.js';
import { authorizationCodeTtl, FAPI_FEATURE, fapi2AssertionAlg, fapi2ClientMetadata, rotateRefreshToken } from './fapi-profile.js';

const engineClient = (securityProfile?: string) => ({ metadata: () => ({ security_profile: securityProfile }) });
const ctxOf = (client: unknown) => ({ oidc: { client } }) as unknown as KoaContextWithOIDC;
const merchant = (fields: Partial<MerchantEntity>) => ({ securityProfile: 'fapi2', tokenEndpointAuthMethod: 'private_key_jwt', ...fields }) as MerchantEntity;

describe('the FAPI 2.0 profile in the engine', () => {
  it('makes only fapi2 merchants FAPI 2.0 clients of the engine', () => {
    const ctx = ctxOf(undefined);
    expect(FAPI_FEATURE.profile(ctx, engineClient('fapi2'))).toBe('2.0');
    expect(FAPI_FEATURE.profile(ctx, engineClient('default'))).toBeUndefined();
    expect(FAPI_FEATURE.profile(ctx, undefined)).toBeUndefined();
  });

  it('requires PAR and DPoP and names one assertion and one JARM algorithm for a fapi2 merchant; nothing for the default profile', () => {
    expect(fapi2ClientMetadata(merchant({}), { kty: 'EC' })).toEqual({
      security_profile: 'fapi2',
      require_pushed_authorization_requests: true,
      dpop_bound_access_tokens: true,
      token_endpoint_auth_signing_alg: 'ES256',
      authorization_signed_response_alg: 'ES256',
      request_object_signing_alg: 'ES256',
    });
    expect(fapi2ClientMetadata(merchant({ requestObjectSigningAlg: 'PS256' }), { kty: 'EC' })).toMatchObject({ request_object_signing_alg: 'PS256' });
    expect(fapi2ClientMetadata(merchant({ securityProfile: 'default' }), { kty: 'EC' })).toEqual({});
  });

  it('leaves DPoP to the mTLS binding for a merchant authenticating with a TLS certificate', () => {
    const mtls = fapi2ClientMetadata(merchant({ tokenEndpointAuthMethod: 'tls_client_auth' as MerchantEntity['tokenEndpointAuthMethod'] }), undefined);
    expect(mtls).toMatchObject({ require_pushed_authorization_requests: true, dpop_bound_access_tokens: false });
    expect(mtls).not.toHaveProperty('token_endpoint_auth_signing_alg');
  });

  it('chooses PS256 or ES256 by the signing key (FAPI 2.0 SP 5.4.1), keeping a key marked with one of them', () => {
    expect(fapi2AssertionAlg({ kty: 'RSA' })).toBe('PS256');
    expect(fapi2AssertionAlg({ kty: 'RSA', alg: 'RS256' })).toBe('PS256');
    expect(fapi2AssertionAlg({ kty: 'EC', alg: 'ES256' })).toBe('ES256');
    expect(fapi2AssertionAlg(undefined)).toBe('ES256');
  });

  it('caps the code lifetime at 60 s for a fapi2 merchant only (FAPI 2.0 SP 5.3.2.1)', () => {
    const ttl = authorizationCodeTtl(300);
    expect(ttl(ctxOf(undefined), {}, engineClient('fapi2'))).toBe(60);
    expect(ttl(ctxOf(undefined), {}, engineClient('default'))).toBe(300);
    expect(authorizationCodeTtl(30)(ctxOf(undefined), {}, engineClient('fapi2'))).toBe(30);
  });

  it('rotates refresh tokens for the default profile only (FAPI 2.0 SP 5.3.2.1: no rotation)', () => {
    expect(rotateRefreshToken(ctxOf(engineClient('fapi2')))).toBe(false);
    expect(rotateRefreshToken(ctxOf(engineClient('default')))).toBe(true);
  });
});
