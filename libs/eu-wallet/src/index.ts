/** The EU Digital Identity Wallet verifier's pure parts (no Nest): OpenID4VP 1.0, SD-JWT VC and mdoc checks. */
export { openId4VpSessionTranscript, sessionTranscriptBytes, type OpenId4VpHandoverInput } from './mdoc/session-transcript.js';
export { verifyMdocPresentation, type MdocPresentation, type MdocPresentationInput } from './mdoc/verify-mdoc.js';
export { MAX_DEVICE_RESPONSE_BYTES } from './mdoc/cbor-guard.js';
export { issueTestMdoc, fullDate, type TestMdocInput } from './specimen/issue-mdoc.js';
