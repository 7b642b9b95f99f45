import { AppError } from '../common/errors/app-error.js';

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
export const livenessChallengeMismatch = () => new VerifierError(409, 'liveness_challenge_mismatch', 'the frames do not answer the current liveness challenge');
export const livenessExpired = () =>
  new VerifierError(410, 'liveness_expired', 'the liveness challenge has expired: liveness data is valid only a few minutes; ask for a new challenge');
export const challengeMissing = () => new VerifierError(409, 'challenge_missing', 'ask for an active authentication challenge first');
export const chipAuthChallengeMissing = () =>
  new VerifierError(409, 'challenge_missing', 'ask for a chip authentication challenge first (POST /app/v1/session/ca-challenge); each challenge answers one chip step');
export const specimenOnlyInTest = () => new VerifierError(404, 'not_found', 'specimen documents exist only in the customer-test environment');
