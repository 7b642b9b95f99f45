import { AppError } from '../common/errors/app-error.js';

/** Errors of the CIBA module's own endpoints (the app side and the token poll gate), in the spec's shape (2.7). */
export class CibaError extends AppError {}

/** CIBA Core 11 / RFC 8628 3.5: polled faster than the interval; the interval grows by 5 seconds. */
export const slowDown = (interval: number) =>
  new CibaError(400, 'slow_down', `polled faster than the interval; wait at least ${interval} seconds between polls`);
export const expiredToken = () => new CibaError(400, 'expired_token', 'the backchannel authentication request has expired');
export const requestNotFound = () => new CibaError(404, 'not_found', 'no pending backchannel request with this id for this app');
export const requestNotPending = (state: string) => new CibaError(409, 'wrong_request_state', `the backchannel request is ${state}`);
export const requestExpired = () => new CibaError(410, 'request_expired', 'the backchannel request has expired');
export const verificationNotDone = () =>
  new CibaError(409, 'verification_pending', 'the document verification has not finished yet; run it with the session link first');
export const appSecretInvalid = () => new CibaError(401, 'unauthorized', 'the app secret does not match this app');
export const appSecretRequired = () =>
  new CibaError(
    400,
    'invalid_request',
    'app_secret is required to answer a provisioning: it binds this install, and only an app presenting it may answer later requests',
  );
export const appSuspended = () => new CibaError(403, 'app_suspended', 'this app is suspended at the merchant; it cannot answer authentication requests');
/** A long poll is held only for an app that proves itself (CibaAppService.pending). */
export const longPollUnauthenticated = () =>
  new CibaError(401, 'unauthorized', 'a long poll (wait_seconds) needs the app_secret of the bound app or the provisioning_code of an open provisioning');
/** Seconds a client over LONG_POLLS_PER_CLIENT is asked to wait: its other polls end within 25 s. */
const LONG_POLL_RETRY_SECONDS = 5;
export const tooManyLongPolls = () => {
  const e = new CibaError(429, 'temporarily_unavailable', `too many long polls from this address; retry after ${LONG_POLL_RETRY_SECONDS} seconds`);
  e.headers = { 'Retry-After': String(LONG_POLL_RETRY_SECONDS), 'Cache-Control': 'no-store' };
  return e;
};
