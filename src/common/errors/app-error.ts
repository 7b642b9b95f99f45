/**
 * The one error base of the service (after node-oidc-provider's OIDCProviderError): `code` and
 * `description` are public and reach the client; `detail` is private and only reaches the logs.
 * Each feature module declares its own subclasses with its own codes; the global filter maps them to HTTP.
 */
export class AppError extends Error {
  /** Response headers the error needs (e.g. WWW-Authenticate). */
  headers?: Record<string, string>;
  /** Further public members of the error object (e.g. a retry reason); never personal data or internals. */
  publicFields?: Record<string, string>;
  /**
   * An operation whose spec defines another error object (auth-files, spec 2.7: `response-type`,
   * `response-code`, `response-message`) sets the whole body here; the filter sends it instead of
   * `{ error, error_description }`, with the request id added as everywhere.
   */
  replacementBody?: Record<string, string>;

  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    readonly detail?: string,
  ) {
    super(description);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(description: string, readonly fields?: Record<string, string[]>, detail?: string) {
    super(400, 'invalid_request', description, detail);
  }
}

export class NotFoundError extends AppError {
  constructor(what: string) {
    super(404, 'not_found', `${what} not found`);
  }
}

export class UnauthorizedError extends AppError {
  constructor(description = 'a valid bearer token is required') {
    super(401, 'unauthorized', description);
  }
}

export class ForbiddenError extends AppError {
  constructor(description: string) {
    super(403, 'forbidden', description);
  }
}
