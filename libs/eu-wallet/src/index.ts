/** The EU Digital Identity Wallet verifier's pure parts (no Nest): OpenID4VP 1.0, SD-JWT VC and mdoc checks. */
export { openId4VpSessionTranscript, sessionTranscriptBytes, type OpenId4VpHandoverInput } from './mdoc/session-transcript.js';

// SD-JWT VC presentations and Token Status List (branch wallet-sdjwt).
export { verifySdJwtVcPresentation, type SdJwtVcPresentation, type SdJwtVcPresentationInput } from './sd-jwt-vc/verify-presentation.js';
export { StatusListChecker, type StatusListCheckerOptions } from './status-list/status-list-checker.js';
export { issueSdJwtVc, SPECIMEN_PID_CLAIMS, type IssueSdJwtVcOptions } from './specimen/issue-sd-jwt-vc.js';
export { createStatusList, type CreateStatusListOptions } from './specimen/issue-status-list.js';
// End of SD-JWT VC and Token Status List.
