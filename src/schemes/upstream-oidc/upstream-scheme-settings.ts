import type { ID_TOKEN_ENCRYPTION_ALGS, ID_TOKEN_ENCRYPTION_ENCS } from './keys/upstream-client-keys.service.js';
import type { ClaimMapperConfig } from './mappers/index.js';

export type IdTokenEncryptionAlg = (typeof ID_TOKEN_ENCRYPTION_ALGS)[number];
export type IdTokenEncryptionEnc = (typeof ID_TOKEN_ENCRYPTION_ENCS)[number];

/**
 * One upstream scheme's configuration as the running scheme needs it (kept apart from the instance, as
 * Keycloak keeps IdentityProviderModel apart from IdentityProvider): read from `eid_schemes`, secret unsealed.
 */
export interface UpstreamSchemeSettings {
  id: string;
  labels: Record<string, string>;
  environment: 'customer-test' | 'production';
  issuer: string;
  clientId: string;
  clientSecret?: string;
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  /** private_key_jwt: which of our keys (GET /its/eid/jwks) signs the client assertion. */
  tokenEndpointAuthSigningAlg: 'RS256' | 'ES256';
  /** The upstream encrypts ID tokens to our key (GET /its/eid/jwks, use enc): then a plain ID token is refused. */
  idTokenEncryption?: { alg: IdTokenEncryptionAlg; enc: IdTokenEncryptionEnc };
  /** Scopes asked of the upstream (`openid` always among them). */
  scope: string;
  /** Upstream acr_values sent on every request, unless the merchant asked for our high level. */
  acrValues: string[];
  /** Upstream acr → ours (e.g. `urn:bankid:high` → `urn:svc:cert:eidas:high`); unmapped values give no acr. */
  acrMap: Record<string, string>;
  passUiLocales: boolean;
  passLoginHint: boolean;
  userinfo: boolean;
  /** What the broker's ID token says about how the user authenticated (`amr`), e.g. `["bankid", "mfa"]`. */
  amr: string[];
  /** Which upstream claim identifies the person, and whether `sub` is its keyed hash or the value itself. */
  subjectClaim: string;
  subjectMode: 'hashed' | 'upstream';
  claimMappers: ClaimMapperConfig[];
  /** Changes whenever the row does: a scheme instance is rebuilt (and its discovery fetched again) after a change. */
  version: string;
}
