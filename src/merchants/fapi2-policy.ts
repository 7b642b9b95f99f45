import { TOKEN_ENDPOINT_AUTH_METHODS } from './merchant.entity.js';

/** FAPI 2.0 Security Profile §5.4.1: the signing algorithms a FAPI merchant may use (of those this service offers). */
export const FAPI2_SIGNING_ALGS = ['ES256', 'PS256'] as const;

/**
 * FAPI 2.0 SP §5.3.2.1 "shall authenticate clients using … MTLS … or private_key_jwt": the one place that lists the
 * client authentication methods a FAPI merchant may register. The mTLS names (RFC 8705 §2) join by themselves once
 * they are methods of this service (TOKEN_ENDPOINT_AUTH_METHODS); nothing else needs to change here.
 */
const FAPI2_KEY_AUTH_METHODS: readonly string[] = ['private_key_jwt', 'tls_client_auth', 'self_signed_tls_client_auth'];
export const FAPI2_AUTH_METHODS: readonly string[] = FAPI2_KEY_AUTH_METHODS.filter((m) => (TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(m));

export interface Fapi2Settings {
  securityProfile?: string;
  redirectUris: string[];
  tokenEndpointAuthMethod: string;
  jwksUri: string | null;
  jwks: { keys: unknown[] } | null;
  requestObjectSigningAlg: string | null;
  backchannelAuthenticationRequestSigningAlg?: string | null;
  backchannelTokenDeliveryMode?: string;
  /** The ID token's (and user-info's) algorithm; absent: the default, RS256. */
  idTokenSignedResponseAlg?: string;
}

/**
 * The FAPI 2.0 Security Profile's rules on a merchant's registration (the engine enforces the rest per request,
 * src/oidc/provider/fapi-profile.ts). Adds a message per broken rule; nothing for a merchant of the default profile.
 */
export function fapi2SettingProblems(s: Fapi2Settings, add: (field: string, message: string) => void): void {
  if (s.securityProfile !== 'fapi2') return;
  // §5.3.2.1: no shared secrets; a key (private_key_jwt, with the merchant's public keys) or a TLS client certificate.
  if (!FAPI2_AUTH_METHODS.includes(s.tokenEndpointAuthMethod))
    add('token_endpoint_auth_method', `fapi2 needs ${FAPI2_AUTH_METHODS.join(' or ')} (FAPI 2.0 SP 5.3.2.1: no client secrets)`);
  if (s.tokenEndpointAuthMethod === 'private_key_jwt' && !s.jwks && !s.jwksUri) add('jwks', 'fapi2 with private_key_jwt needs jwks or jwks_uri');
  // §5.3.2.2: "shall not allow redirect URIs that use the http scheme" (the loopback exception is for native
  // clients; merchants are confidential web clients), so customer-test's http://localhost is refused too.
  for (const uri of s.redirectUris) if (new URL(uri).protocol !== 'https:') add('redirect_uris', `${uri}: fapi2 needs https (FAPI 2.0 SP 5.3.2.2)`);
  // FAPI-CIBA "shall not support CIBA push mode": tokens are fetched from the token endpoint with client authentication.
  if (s.backchannelTokenDeliveryMode === 'push') add('backchannel_token_delivery_mode', 'fapi2 needs poll or ping (FAPI-CIBA: no push mode)');
  // §5.4.1: PS256 or ES256 (EdDSA is not offered by this service).
  for (const [field, alg] of [
    ['request_object_signing_alg', s.requestObjectSigningAlg],
    ['backchannel_authentication_request_signing_alg', s.backchannelAuthenticationRequestSigningAlg],
  ] as const)
    if (alg && !(FAPI2_SIGNING_ALGS as readonly string[]).includes(alg)) add(field, `fapi2 needs ${FAPI2_SIGNING_ALGS.join(' or ')} (FAPI 2.0 SP 5.4.1)`);
  // The default RS256 is below the list: a FAPI merchant's ID tokens and user-info answers are ES256 (the one of the two offered).
  if (!(FAPI2_SIGNING_ALGS as readonly string[]).includes(s.idTokenSignedResponseAlg ?? 'RS256'))
    add('id_token_signed_response_alg', 'fapi2 needs ES256 (FAPI 2.0 SP 5.4.1)');
  // A key the merchant marked for an algorithm below the list could never sign an accepted assertion.
  for (const key of s.jwks?.keys ?? []) {
    const { alg, kid } = key as { alg?: unknown; kid?: unknown };
    if (typeof alg === 'string' && /^(RS|HS)\d+$/.test(alg)) add('jwks', `key ${String(kid ?? '')}: alg ${alg} is not allowed for fapi2 (FAPI 2.0 SP 5.4.1)`);
  }
}
