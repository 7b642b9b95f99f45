/**
 * The Credential Issuer Metadata (OpenID4VCI 1.0 §12.2) and the Authorization Server Metadata (RFC 8414 §2, with
 * OpenID4VCI 1.0 §12.3 and RFC 9449 §5.1) of the issuer, which is its own authorization server: so the issuer
 * metadata omits `authorization_servers` (§12.2.4). Both are checked against @openid4vc's zod schemas before use.
 */
import { Oauth2AuthorizationServer, preAuthorizedCodeGrantIdentifier } from '@openid4vc/oauth2';
import { Openid4vciIssuer } from '@openid4vc/openid4vci';
import type { ClaimDescription, LocalizedDisplay } from './display.js';
import { allowLoopbackHttpFor } from '../loopback-http.js';
import { HOLDER_KEY_ALGS, type HolderKeyAlg } from './holder-jws.js';

export interface CredentialIssuerMetadataInput {
  /** The Credential Issuer Identifier (https, no trailing slash), e.g. `${BASE_URL}/vci`. */
  credentialIssuer: string;
  configurationId: string;
  vct: string;
  display: LocalizedDisplay[];
  claims: ClaimDescription[];
  /** batch_credential_issuance.batch_size (§12.2.4: at least 2 when present). */
  batchSize: number;
  /** Key proof algorithms (proof_signing_alg_values_supported); default all accepted. */
  signingAlgs?: readonly HolderKeyAlg[];
  /** A test environment on this machine: an http://127.0.0.1 identifier (never another http one). */
  allowHttpLoopback?: boolean;
}

export interface AuthorizationServerMetadataInput {
  /** Equal to the Credential Issuer Identifier. */
  issuer: string;
  tokenEndpoint: string;
  /** Only once the authorization code flow exists. */
  authorizationEndpoint?: string;
  /** DPoP algorithms (dpop_signing_alg_values_supported); default all accepted. */
  dpopSigningAlgs?: readonly HolderKeyAlg[];
  allowHttpLoopback?: boolean;
}

/** The libraries' zod checks only: no callback of theirs runs for these. */
const noCallbacks = () => {
  throw new Error('not used for metadata');
};
const callbacks = { hash: noCallbacks, signJwt: noCallbacks, verifyJwt: noCallbacks, generateRandom: noCallbacks, clientAuthentication: noCallbacks };

/** OpenID4VCI 1.0 §12.2.4 with the SD-JWT VC profile of Appendix A.3 (format dc+sd-jwt, vct). */
export function credentialIssuerMetadata(input: CredentialIssuerMetadataInput) {
  if (!Number.isInteger(input.batchSize) || input.batchSize < 1) throw new Error('batchSize is not a positive integer');
  const metadata = {
    credential_issuer: input.credentialIssuer,
    credential_endpoint: `${input.credentialIssuer}/credential`,
    // §7: the Nonce Endpoint's presence says key proofs carry a c_nonce.
    nonce_endpoint: `${input.credentialIssuer}/nonce`,
    // §12.2.4: batch_size MUST be 2 or greater; a size of 1 is expressed by leaving the parameter out.
    ...(input.batchSize >= 2 ? { batch_credential_issuance: { batch_size: input.batchSize } } : {}),
    credential_configurations_supported: {
      [input.configurationId]: {
        format: 'dc+sd-jwt',
        vct: input.vct,
        cryptographic_binding_methods_supported: ['jwk'],
        credential_signing_alg_values_supported: ['ES256'],
        proof_types_supported: { jwt: { proof_signing_alg_values_supported: [...(input.signingAlgs ?? HOLDER_KEY_ALGS)] } },
        // 1.0 final: display and claims inside credential_metadata (drafts had them beside format).
        credential_metadata: {
          display: input.display.map((d) => ({ name: d.name, locale: d.locale, ...(d.description ? { description: d.description } : {}) })),
          claims: input.claims.map((c) => ({ path: c.path, display: c.display.map((d) => ({ name: d.name, locale: d.locale })) })),
        },
      },
    },
  };
  allowLoopbackHttpFor(input.credentialIssuer, input.allowHttpLoopback);
  return new Openid4vciIssuer({ callbacks }).createCredentialIssuerMetadata(metadata);
}

/** RFC 8414 §2 for this issuer's token endpoint: the pre-authorized code grant, anonymous (OpenID4VCI 1.0 §12.3), DPoP. */
export function authorizationServerMetadata(input: AuthorizationServerMetadataInput) {
  const metadata = {
    issuer: input.issuer,
    token_endpoint: input.tokenEndpoint,
    ...(input.authorizationEndpoint
      ? {
          authorization_endpoint: input.authorizationEndpoint,
          response_types_supported: ['code'],
          authorization_response_iss_parameter_supported: true,
          // Wallets are public clients (registered by the operator), proven by PKCE and DPoP.
          token_endpoint_auth_methods_supported: ['none'],
        }
      : {}),
    grant_types_supported: [preAuthorizedCodeGrantIdentifier, ...(input.authorizationEndpoint ? ['authorization_code'] : [])],
    // OpenID4VCI 1.0 §12.3: the wallet need not authenticate for the pre-authorized code grant.
    'pre-authorized_grant_anonymous_access_supported': true,
    // RFC 9449 §5.1.
    dpop_signing_alg_values_supported: [...(input.dpopSigningAlgs ?? HOLDER_KEY_ALGS)],
    // RFC 7636 via HAIP 1.0: S256 only (for the authorization code flow).
    code_challenge_methods_supported: ['S256'],
  };
  allowLoopbackHttpFor(input.issuer, input.allowHttpLoopback);
  return new Oauth2AuthorizationServer({ callbacks }).createAuthorizationServerMetadata(metadata);
}

/**
 * The well-known URL of an identifier with a path: the well-known segment goes between host and path (OpenID4VCI 1.0
 * §12.2.2, RFC 8414 §3.1), a trailing `/` of the path removed: `https://h/vci` → `https://h/.well-known/<name>/vci`.
 */
export function wellKnownUrl(identifier: string, name: 'openid-credential-issuer' | 'oauth-authorization-server'): string {
  const url = new URL(identifier);
  if (url.search || url.hash) throw new Error('an issuer identifier has no query or fragment');
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}/.well-known/${name}${path}`;
}
