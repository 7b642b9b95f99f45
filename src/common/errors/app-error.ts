import type { UiLocale } from '../../i18n/locales.js';
import type { PageSite } from '../pages/layout.js';

/**
 * The one error base of the service (after node-oidc-provider's OIDCProviderError): `code` and
 * `description` are public and reach the client; `detail` is private and only reaches the logs.
 * Each feature module declares its own subclasses with its own codes; the error renderer
 * (error-renderer.ts) answers them, and nothing else writes an error to a client.
 */
export class AppError extends Error {
  /** Response headers the error needs (e.g. WWW-Authenticate). */
  headers?: Record<string, string>;
  /** Further public members of the error object (e.g. a retry reason); never personal data or internals. */
  publicFields?: Record<string, string>;
  /**
   * An operation whose spec defines another error object (auth-files, spec 2.7: `response-type`,
   * `response-code`, `response-message`) sets the whole body here; the renderer sends it instead of
   * `{ error, error_description }`, with the request id added as everywhere.
   */
  replacementBody?: Record<string, string>;
  /** The code the error page shows where a person reads it otherwise than the protocol's client (a 429 is busy, not down). */
  pageCode?: string;
  /**
   * Where the route answers a page (error-representation.ts), a page of the error's own in place of the generic
   * error page (a used sign-in link says so in its own words); the renderer still picks its language.
   */
  ownPage?: (site: PageSite, locale: UiLocale, requestId: string | undefined) => string;

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
  constructor(
    description: string,
    readonly fields?: Record<string, string[]>,
    detail?: string,
  ) {
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

/**
 * A failure no client is told about (configuration, stored data, keys, outbound calls, the database): answered as
 * the generic 500 `server_error`, its message kept for the logs (`message` and `detail`) and never sent.
 */
export class InternalError extends AppError {
  constructor(message: string) {
    super(500, 'server_error', 'internal server error', message);
    this.message = message;
    // The stack's first line names the message for the logs, not the public description.
    Error.captureStackTrace?.(this, new.target);
  }
}

/**
 * A refusal a person reads on a page of its own (a used or unknown link, a form that is no longer valid). The error
 * renderer shows that page where the route answers pages, in the language it picks; never kept by a cache.
 */
export class OwnPageError extends AppError {
  constructor(status: number, code: string, description: string, page: NonNullable<AppError['ownPage']>) {
    super(status, code, description);
    this.ownPage = page;
    this.headers = { 'Cache-Control': 'no-store' };
  }
}
