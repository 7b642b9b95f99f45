import { AppError } from '../../common/errors/app-error.js';
import { CAPTURE_RETRY_MESSAGES, type CaptureRetryReason } from '../../i18n/capture-retry-messages.js';
import { htmlLang, type UiLocale } from '../../i18n/locales.js';

/** Errors of the app API; every one leaves the session as it was (no half-written state). */
export class VerifierError extends AppError {}

export const sessionNotFound = () => new VerifierError(404, 'session_not_found', 'no verification session for this token');
export const sessionExpired = () => new VerifierError(410, 'session_expired', 'the verification session has expired; start again from the service');
export const wrongState = (state: string, expected: string[]) =>
  new VerifierError(409, 'wrong_session_state', `the session is ${state}; this step needs ${expected.join(' or ')}`);
export const appTokenRequired = () => {
  const e = new VerifierError(401, 'unauthorized', 'the session bearer token is required');
  e.headers = { 'WWW-Authenticate': 'Bearer realm="verifier-app"' };
  return e;
};
export const unusableChipData = (why: string) => new VerifierError(422, 'unusable_chip_data', why);
export const unusableFaceData = (why: string) => new VerifierError(422, 'unusable_face_data', why);
/** Face work of this instance is at its bound (FaceWorkQueue): nothing was done, the app retries later. */
export const faceBusy = (retryAfterSeconds: number) => {
  const e = new VerifierError(503, 'temporarily_unavailable', `face verification is busy; retry in ${retryAfterSeconds} seconds`);
  e.headers = { 'Retry-After': String(retryAfterSeconds) };
  return e;
};
export const livenessChallengeMismatch = (why = 'the frames do not answer the current liveness challenge') =>
  new VerifierError(409, 'liveness_challenge_mismatch', why);
/**
 * The centre frame cannot be used (failure to acquire, ISO/IEC 19795-1): nothing was matched, the session stays at
 * the face step and the app captures again with a new challenge. The description starts with the reason code.
 */
/** The centre frame is unusable: the reason code, an English description for developers and, once the phone's locale is known, the words to show the user. */
export class CaptureRetryError extends VerifierError {
  constructor(readonly reason: CaptureRetryReason) {
    super(422, 'capture_retry', `${reason}: ${CAPTURE_RETRY_MESSAGES.en_GB[reason]} Ask for a new liveness challenge.`);
    this.publicFields = { retry_reason: reason, retry_message: CAPTURE_RETRY_MESSAGES.en_GB[reason] };
  }

  /** The same refusal with `retry_message` in the phone's language (Content-Language says which). */
  inLocale(locale: UiLocale): CaptureRetryError {
    const localized = new CaptureRetryError(this.reason);
    localized.publicFields = { retry_reason: this.reason, retry_message: CAPTURE_RETRY_MESSAGES[locale][this.reason] };
    localized.headers = { 'Content-Language': htmlLang(locale) };
    return localized;
  }
}
export const captureRetry = (reason: CaptureRetryReason) => new CaptureRetryError(reason);
/** The frames do not form an answer of the protocol's shape (step order, burst sizes): refused unread, nothing spent. */
export const livenessFramesRefused = (why: string) => new VerifierError(400, 'invalid_request', why);
export const livenessExpired = () =>
  new VerifierError(410, 'liveness_expired', 'the liveness challenge has expired: liveness data is valid only a few minutes; ask for a new challenge');
export const challengeMissing = () => new VerifierError(409, 'challenge_missing', 'ask for an active authentication challenge first');
export const chipAuthChallengeMissing = () =>
  new VerifierError(
    409,
    'challenge_missing',
    'ask for a chip authentication challenge first (POST /app/v1/session/ca-challenge); each challenge answers one chip step',
  );
export const specimenOnlyInTest = () => new VerifierError(404, 'not_found', 'specimen documents exist only in the customer-test environment');
