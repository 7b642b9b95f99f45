/** The EU Digital Identity Wallet verifier's pure parts (no Nest): OpenID4VP 1.0, SD-JWT VC and mdoc checks. */
export { openId4VpSessionTranscript, sessionTranscriptBytes, type OpenId4VpHandoverInput } from './mdoc/session-transcript.js';
