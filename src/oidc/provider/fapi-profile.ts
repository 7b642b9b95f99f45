import type { ClientMetadata, KoaContextWithOIDC } from 'oidc-provider';
import type { MerchantEntity } from '../../merchants/merchant.entity.js';
import type { Jwk } from '../../merchants/merchant-jwks.js';

/** FAPI 2.0 SP §5.3.2.1: "shall issue authorization codes with a maximum lifetime of 60 seconds". */
export const FAPI2_MAX_CODE_TTL_SECONDS = 60;

type EngineClient = { metadata(): Record<string, unknown> } | undefined;

/** Whether the engine's client is a merchant of the FAPI 2.0 profile (its `security_profile`, toClientMetadata). */
export const isFapi2Client = (client: EngineClient): boolean => client?.metadata().security_profile === 'fapi2';

/**
 * The engine's FAPI feature, per client: a fapi2 merchant is a FAPI 2.0 client (the engine then demands the issuer as
 * the client assertion's only audience, a redirect_uri in every request, PKCE by its own default); every other
 * merchant is not a FAPI client and keeps today's rules.
 */
export const FAPI_FEATURE = {
  enabled: true,
  profile: (_ctx: KoaContextWithOIDC, client: EngineClient) => (isFapi2Client(client) ? '2.0' : undefined),
};

/**
 * The TLS client authentication methods (RFC 8705 §2): a merchant using one gets certificate-bound tokens instead of
 * DPoP-bound ones (RFC 8705 §3).
 */
const MTLS_AUTH_METHODS = new Set(['tls_client_auth', 'self_signed_tls_client_auth']);
const usesMtls = (m: Pick<MerchantEntity, 'tokenEndpointAuthMethod'>) => MTLS_AUTH_METHODS.has(m.tokenEndpointAuthMethod);

/**
 * FAPI 2.0 SP §5.4.1 (PS256, ES256): the client assertion's one algorithm, by the merchant's signing key (the engine
 * takes one `token_endpoint_auth_signing_alg` per client and refuses every other with invalid_client). A key marked
 * with one of the two keeps its mark; without a key ES256 is named, and nothing can be verified: it fails closed.
 */
export function fapi2AssertionAlg(signingKey: Jwk | undefined): 'ES256' | 'PS256' {
  const marked = signingKey?.alg;
  if (marked === 'ES256' || marked === 'PS256') return marked;
  return signingKey?.kty === 'RSA' ? 'PS256' : 'ES256';
}

/**
 * A fapi2 merchant's engine metadata beyond the default profile's: requests only through PAR (RFC 9126 §5,
 * FAPI 2.0 SP §5.3.2.2), sender-constrained tokens (§5.3.2.1: DPoP, RFC 9449 §5.2, unless the merchant authenticates
 * with mTLS), the profile's algorithms. Nothing for a merchant of the default profile.
 */
export function fapi2ClientMetadata(m: MerchantEntity, signingKey: Jwk | undefined): Partial<ClientMetadata> {
  if (m.securityProfile !== 'fapi2') return {};
  return {
    security_profile: 'fapi2',
    require_pushed_authorization_requests: true,
    dpop_bound_access_tokens: !usesMtls(m),
    // RFC 8705 §3: a merchant authenticating with its TLS certificate gets tokens bound to that certificate.
    ...(usesMtls(m) ? { tls_client_certificate_bound_access_tokens: true } : {}),
    ...(m.tokenEndpointAuthMethod === 'private_key_jwt' ? { token_endpoint_auth_signing_alg: fapi2AssertionAlg(signingKey) } : {}),
    // §5.4.1: our signatures in the profile's list; JARM responses (Message Signing §5.4.1) as the ID tokens, ES256.
    authorization_signed_response_alg: 'ES256',
    // A request object inside PAR is signed with the registered algorithm, else the signing key's (§5.4.1): never RS256.
    // A merchant without keys (mTLS) sends no request object at all: it could not be verified.
    ...(m.requestObjectSigningAlg || signingKey
      ? { request_object_signing_alg: (m.requestObjectSigningAlg ?? fapi2AssertionAlg(signingKey)) as ClientMetadata['request_object_signing_alg'] }
      : {}),
  };
}

/** §5.3.2.1: a configured code lifetime above 60 s is capped at 60 s for a FAPI client (others keep the setting). */
export function authorizationCodeTtl(configuredSeconds: number) {
  return (_ctx: KoaContextWithOIDC, _code: unknown, client: EngineClient): number =>
    isFapi2Client(client) ? Math.min(configuredSeconds, FAPI2_MAX_CODE_TTL_SECONDS) : configuredSeconds;
}

/**
 * FAPI 2.0 SP §5.3.2.1: "shall not use refresh token rotation except in extraordinary circumstances". A FAPI merchant's
 * refresh token is bound to its client authentication (a key or certificate), so it keeps its token; others rotate.
 */
export const rotateRefreshToken = (ctx: KoaContextWithOIDC): boolean => !isFapi2Client(ctx.oidc.client);
