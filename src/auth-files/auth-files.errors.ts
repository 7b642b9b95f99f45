import { AppError } from '../common/errors/app-error.js';

/** `response-type` of the auth-files error object (spec 2.7): VOID = the request cannot be served as sent; FAIL = it was understood but the file cannot be made; RETRY = try again later. */
export type AuthFilesResponseType = 'VOID' | 'FAIL' | 'RETRY';

/**
 * An auth-files refusal: it leaves as the error object of spec 2.7 (`response-type`, `response-code`,
 * `response-message`), never as `{ error, error_description }`; `detail` reaches the logs only.
 */
export class AuthFilesError extends AppError {
  constructor(
    status: number,
    readonly responseType: AuthFilesResponseType,
    code: string,
    message: string,
    detail?: string,
  ) {
    super(status, code, message, detail);
    this.replacementBody = { 'response-type': responseType, 'response-code': code, 'response-message': message };
  }
}

/**
 * One answer for an unknown tid, another merchant's record and a record past retention (spec 1.9): the three
 * must be indistinguishable so no merchant can learn whether a tid exists. The reason goes to the log only.
 */
export const unknownTransaction = (detail: string) => new AuthFilesError(400, 'VOID', 'UNKNOWN_TRANSACTION', 'no auth file is available for this tid', detail);

export const invalidAuthFilesRequest = (message: string) => new AuthFilesError(400, 'VOID', 'INVALID_REQUEST', message);

/** Spec 5.2: HTTP Basic with the merchant's client_id and secret. 401 with a challenge, as the token endpoint does. */
export const merchantAuthenticationFailed = () => {
  const error = new AuthFilesError(401, 'VOID', 'UNAUTHORIZED', 'merchant authentication failed (HTTP Basic with client_id and secret)');
  error.headers = { 'WWW-Authenticate': 'Basic realm="auth_files"' };
  return error;
};

/** The record holds no such picture (no selfie when the chip step failed and no face step ran). */
export const sourceUnavailable = (source: string) => new AuthFilesError(400, 'FAIL', 'SOURCE_UNAVAILABLE', `this verification has no ${source} picture`);

/** The stored picture cannot be decoded; the record is intact, so retrying will not help. */
export const fileNotProduced = (detail: string) => new AuthFilesError(500, 'FAIL', 'FILE_NOT_PRODUCED', 'the auth file could not be produced', detail);

/** `response-code` for the generic errors raised before the operation runs (the body parser, the NUL check, routing). */
const GENERIC_CODES: Record<number, string> = {
  400: 'INVALID_REQUEST',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

/**
 * The auth-files error object for an error answered under /auth_files/ before the service's own checks (a body
 * that is not JSON, too large, a NUL): spec 7.4 promises the auth-files error there, never `{ error, … }`.
 */
export function authFilesErrorShape(status: number, generic: { error: string; error_description: string }): Record<string, string> {
  if (status >= 500) return { 'response-type': 'RETRY', 'response-code': 'SERVER_ERROR', 'response-message': generic.error_description };
  return { 'response-type': 'VOID', 'response-code': GENERIC_CODES[status] ?? 'INVALID_REQUEST', 'response-message': generic.error_description };
}
