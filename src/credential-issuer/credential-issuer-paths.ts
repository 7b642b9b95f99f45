/**
 * Where the credential issuer lives. Its identifier has a path (`/vci`), so its metadata and its authorization
 * server's are found by inserting the well-known segment before that path (OpenID4VCI 1.0 §12.2.2, RFC 8414 §3.1).
 */
export const VCI_PATHS = {
  prefix: '/vci',
  token: '/vci/token',
  nonce: '/vci/nonce',
  credential: '/vci/credential',
  offers: '/vci/offers',
  issuerMetadata: '/.well-known/openid-credential-issuer/vci',
  authorizationServerMetadata: '/.well-known/oauth-authorization-server/vci',
  /** SD-JWT VC draft, "JWT VC Issuer Metadata": `/.well-known/jwt-vc-issuer` inserted between host and the identifier's path. */
  jwtVcIssuerMetadata: '/.well-known/jwt-vc-issuer/vci',
  typeMetadata: '/vct/verified-document-identity',
} as const;

/** The one credential configuration this issuer offers. */
export const CREDENTIAL_CONFIGURATION_ID = 'verified_document_identity';

export interface IssuerUrls {
  issuer: string;
  token: string;
  nonce: string;
  credential: string;
  vct: string;
  offer(handle: string): string;
}

export function issuerUrls(baseUrl: string): IssuerUrls {
  const at = (path: string) => `${baseUrl}${path}`;
  return {
    issuer: at(VCI_PATHS.prefix),
    token: at(VCI_PATHS.token),
    nonce: at(VCI_PATHS.nonce),
    credential: at(VCI_PATHS.credential),
    vct: at(VCI_PATHS.typeMetadata),
    offer: (handle) => at(`${VCI_PATHS.offers}/${handle}`),
  };
}
