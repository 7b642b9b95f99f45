/**
 * The EU Digital Identity Wallet scheme's pure parts (no Nest): the verifier (OpenID4VP 1.0, SD-JWT VC and mdoc checks)
 * and the credential issuer's core (OpenID4VCI 1.0: metadata, offer, key and DPoP proofs, SD-JWT VC, status lists).
 */
export { WalletCheckError, type WalletCheckCode } from './errors.js';
export { openId4VpSessionTranscript, sessionTranscriptBytes, type OpenId4VpHandoverInput } from './mdoc/session-transcript.js';
// --- OpenID4VP 1.0 request and response (branch wallet-vp) ---
export { x509HashClientId, x509SanDnsClientId } from './openid4vp/client-identifier.js';
export {
  buildDcqlQuery,
  validateDcqlQuery,
  PID_SD_JWT_VCT,
  PID_MDOC_DOCTYPE,
  MDL_DOCTYPE,
  MDL_NAMESPACE,
  type WantedCredential,
  type DcqlQuery,
  type DcqlCredentialQuery,
  type DcqlCredentialSetQuery,
  type DcqlClaimsQuery,
} from './openid4vp/dcql.js';
export { checkVpTokenAgainstQuery, parseVpToken, type VpToken } from './openid4vp/vp-token.js';
export { createRequestObject, createResponseEncryptionKey, SELF_ISSUED_AUDIENCE, type CreateRequestObjectOptions } from './openid4vp/authorization-request.js';
export type { RequestSigner } from './openid4vp/request-signer.js';
export { parseRequestUriPost, type RequestUriPost } from './openid4vp/request-uri-post.js';
export { openAuthorizationResponse, type AuthorizationResponse, type OpenAuthorizationResponseOptions } from './openid4vp/authorization-response.js';
// --- end wallet-vp ---

// SD-JWT VC presentations and Token Status List (branch wallet-sdjwt).
export { verifySdJwtVcPresentation, type SdJwtVcPresentation, type SdJwtVcPresentationInput } from './sd-jwt-vc/verify-presentation.js';
export { requireValidStatus, StatusListChecker, type StatusListCheckerOptions } from './status-list/status-list-checker.js';
export type { CredentialSigner as PresentationSigner } from './status-list/status-issuer.js';
// Revocation of the issuers' certificates by CRLs (RFC 5280), for every presentation verifier and the status lists.
// The same RFC 5280 §6.3.3 reader also judges merchants' tls_client_auth certificates (CLIENT_CERT_CRL_FILE, RFC 8705 §2.1).
export { crlSignerProblem, judge, parseCrl, peculiar, type Crl, type CrlVerdict } from './trust/crl.js';
export { verifyCertificateChain, type VerifiedChain } from './trust/certificate-chain.js';
export { RevocationChecker, type RevocationCheck, type RevocationCheckerOptions } from './trust/revocation-checker.js';
export { createTestRoot, createTestSigner, issueTestLeaf, type TestCertificate, type TestSigner } from './specimen/test-pki.js';
export { es256Signer, issueSdJwtVc, SPECIMEN_PID_CLAIMS, type IssueSdJwtVcOptions } from './specimen/issue-sd-jwt-vc.js';
export { issueTestCrl, type IssueTestCrlOptions } from './specimen/issue-crl.js';
export { createStatusList, type CreateStatusListOptions } from './specimen/issue-status-list.js';
// End of SD-JWT VC and Token Status List.
export { verifyMdocPresentation, type MdocPresentation, type MdocPresentationInput } from './mdoc/verify-mdoc.js';
export { MAX_DEVICE_RESPONSE_BYTES } from './mdoc/cbor-guard.js';
export { issueTestMdoc, fullDate, type TestMdocInput } from './specimen/issue-mdoc.js';

// OpenID4VCI 1.0 credential issuer (branch vci-lib): metadata, offer, key proofs, DPoP, the credential, status list.
export { CredentialIssuerError, oneLine, type CredentialIssuerErrorCode } from './openid4vci/issuer-error.js';
export { HOLDER_KEY_ALGS, jwkThumbprint, type HolderJwk, type HolderKeyAlg } from './openid4vci/holder-jws.js';
export type { LocalizedDisplay, ClaimDescription } from './openid4vci/display.js';
export {
  credentialIssuerMetadata,
  authorizationServerMetadata,
  wellKnownUrl,
  type CredentialIssuerMetadataInput,
  type AuthorizationServerMetadataInput,
} from './openid4vci/issuer-metadata.js';
export { credentialOffer, credentialOfferLink, type CredentialOfferInput } from './openid4vci/credential-offer.js';
export { cachingFetch, type CachingFetchOptions } from './openid4vci/caching-fetch.js';
export { parseCredentialRequestBody, type CredentialRequestInput, type ParsedCredentialRequest } from './openid4vci/credential-request.js';
export { nonceResponse, credentialResponse } from './openid4vci/responses.js';
export { proofNonce, verifyKeyProofs, type VerifyKeyProofsInput } from './openid4vci/key-proofs.js';
export { verifyDpopProof, type VerifyDpopProofInput, type VerifiedDpopProof } from './openid4vci/dpop.js';
export {
  VERIFIED_IDENTITY_CONFIGURATION_ID,
  VERIFIED_IDENTITY_CLAIM_NAMES,
  AGE_THRESHOLDS,
  type AgeThreshold,
  type VerifiedIdentityClaims,
} from './openid4vci/verified-identity.js';
export type { CredentialSigner } from './openid4vci/credential-signer.js';
export { issueVerifiedIdentityCredential, type IssueVerifiedIdentityCredentialInput } from './openid4vci/issue-credential.js';
export { statusListToken, type StatusListTokenInput } from './openid4vci/status-list-token.js';
export { verifiedIdentityTypeMetadata, type TypeMetadataInput, type TypeMetadataDocument } from './openid4vci/type-metadata.js';
// End of OpenID4VCI credential issuer.
