/** The EU Digital Identity Wallet verifier's pure parts (no Nest): OpenID4VP 1.0, SD-JWT VC and mdoc checks. */
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
export {
  createRequestObject,
  createResponseEncryptionKey,
  SELF_ISSUED_AUDIENCE,
  type CreateRequestObjectOptions,
} from './openid4vp/authorization-request.js';
export type { RequestSigner } from './openid4vp/request-signer.js';
export { parseRequestUriPost, type RequestUriPost } from './openid4vp/request-uri-post.js';
export {
  openAuthorizationResponse,
  type AuthorizationResponse,
  type OpenAuthorizationResponseOptions,
} from './openid4vp/authorization-response.js';
// --- end wallet-vp ---

// SD-JWT VC presentations and Token Status List (branch wallet-sdjwt).
export { verifySdJwtVcPresentation, type SdJwtVcPresentation, type SdJwtVcPresentationInput } from './sd-jwt-vc/verify-presentation.js';
export { StatusListChecker, type StatusListCheckerOptions } from './status-list/status-list-checker.js';
export { issueSdJwtVc, SPECIMEN_PID_CLAIMS, type IssueSdJwtVcOptions } from './specimen/issue-sd-jwt-vc.js';
export { createStatusList, type CreateStatusListOptions } from './specimen/issue-status-list.js';
// End of SD-JWT VC and Token Status List.
export { verifyMdocPresentation, type MdocPresentation, type MdocPresentationInput } from './mdoc/verify-mdoc.js';
export { MAX_DEVICE_RESPONSE_BYTES } from './mdoc/cbor-guard.js';
export { issueTestMdoc, fullDate, type TestMdocInput } from './specimen/issue-mdoc.js';
