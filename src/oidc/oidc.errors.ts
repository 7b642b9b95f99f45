import { AppError } from '../common/errors/app-error.js';

/** Errors of our own OIDC endpoints (those the engine does not serve), in the spec's shapes (2.7). */
export class OidcEndpointError extends AppError {
  constructor(status: number, code: string, description: string, wwwAuthenticate?: string) {
    super(status, code, description);
    if (wwwAuthenticate) this.headers = { 'WWW-Authenticate': wwwAuthenticate };
  }
}

export const invalidClient = () =>
  new OidcEndpointError(401, 'invalid_client', 'client authentication failed (HTTP Basic with client_id and secret)', 'Basic realm="oidc"');
export const missingToken = () => new OidcEndpointError(400, 'invalid_request', 'the token to invalidate is missing (parameter token)');
export const unknownToken = () => new OidcEndpointError(403, 'invalid_token', 'the access token is unknown, expired or already invalidated');
