/** Verifier SDK: the typed client a phone app (or the test app) uses to run a verification session. */
export { VerifierClient } from './verifier-client.js';
export { VerifierApiError } from './errors.js';
export { parseSessionLink, type SessionLink } from './session-link.js';
export type * from './types.js';
export { runVerification, needsChipAuthentication, type CaptureRetry, type PhoneSide } from './run-verification.js';
export { CibaAppClient, approveWithVerification, type CibaPendingRequest, type CibaResult } from './ciba-client.js';
