import { errors } from 'oidc-provider';
import { AppError } from './app-error.js';

const DESCRIPTION = 'the service is briefly unavailable, please try again in a moment';

/**
 * A store a request needs cannot be reached (Redis down). It is the engine's own error class so that the
 * engine answers it as the protocol says (an authorization error redirected to the merchant, the token
 * endpoint's JSON), but with 503 rather than the engine's default 400, and exposed so it is not turned into
 * server_error. The broker's own routes answer it through `toAppError` (the global filter, the pages).
 */
export class TemporarilyUnavailableError extends errors.TemporarilyUnavailable {
  constructor() {
    super(DESCRIPTION);
    this.status = this.statusCode = 503;
    this.expose = true;
  }

  toAppError(): AppError {
    const err = new AppError(503, 'temporarily_unavailable', DESCRIPTION);
    err.headers = { 'retry-after': '1' };
    return err;
  }
}

/** The broker's answer for `e`: the AppError of a store outage, else `e` itself. */
export const asAppError = (e: unknown): unknown => (e instanceof TemporarilyUnavailableError ? e.toAppError() : e);
