import type { Request, Response } from 'express';
import { bodyLeftUnread, closeWithoutReading } from '../http/unread-body.js';
import { logger } from '../logging/logger.js';
import { requestIdOf } from '../logging/request-context.js';
import { errorPage } from '../pages/error-page.js';
import type { PageSite } from '../pages/layout.js';
import type { PageLogo } from '../pages/page-logo.js';
import type { UiLocale } from '../../i18n/locales.js';
import { AppError } from './app-error.js';
import { toErrorBody, type ErrorBody } from './error-body.js';
import { errorPageLocale } from './error-locale.js';
import { representationOf } from './error-representation.js';
import { errorRoutesOf } from './error-routes.js';
import { errorShapeFor } from './route-error-shapes.js';
import { asAppError } from './temporarily-unavailable.js';

/**
 * The one place an error reaches a client (after oidc-provider's one error handler): Nest's global filter, the
 * Express edge (its middlewares call `next(err)`) and the engine's hooks (engine-error-hook.ts) all end here.
 * It logs the error, then answers it as the route and the request want (error-representation.ts): the JSON error
 * object, the error page in the language of errorPageLocale, or a SOAP fault. Anything that is not an AppError is
 * the generic 500, without a stack, a message or a detail.
 */
export function renderError(req: Request, res: Response, caught: unknown): void {
  const error = asAppError(caught);
  const { status, body } = toErrorBody(error);
  const requestId = requestIdOf(req);
  // A store outage (asAppError) is logged once by its client, not once per request.
  if (status >= 500 && error === caught) logger.error({ err: error, request_id: requestId }, 'unhandled error');
  else if (error instanceof AppError && error.detail) logger.info({ code: error.code, detail: error.detail, request_id: requestId }, 'request refused');
  if (res.headersSent) return;
  // Refused before its body has all arrived (by its headers, or over a limit): the rest is not read.
  if (bodyLeftUnread(req)) closeWithoutReading(req, res);
  if (error instanceof AppError && error.headers) for (const [k, v] of Object.entries(error.headers)) res.setHeader(k, v);
  const representation = representationOf(req, error);
  if (representation.kind === 'soap') return void res.status(status).type('text/xml').set('Cache-Control', 'no-store').send(representation.fault);
  if (representation.kind === 'page') {
    const site = errorRoutesOf(req)!.site;
    return void res
      .status(status)
      .type('html')
      .send(errorPageHtml(site, errorPageLocale(req, res), error, requestId, res.locals?.merchantLogo as PageLogo | undefined));
  }
  // An operation with its own error object (route-error-shapes) gets the generic errors in that shape too.
  const shape = 'error' in body && typeof body.error === 'string' ? errorShapeFor(req) : undefined;
  const shaped = shape ? shape(status, body as ErrorBody) : body;
  shaped.request_id = requestId;
  res.status(status).json(shaped);
}

/** The HTML error page of `caught` (its own page where it has one), as the page routes and the engine show it. */
export function errorPageHtml(site: PageSite, locale: UiLocale, caught: unknown, requestId: string | undefined, logo?: PageLogo): string {
  const error = asAppError(caught);
  if (error instanceof AppError && error.ownPage) return error.ownPage(site, locale, requestId);
  const { body } = toErrorBody(error);
  const code = (error instanceof AppError && error.pageCode) || (typeof body.error === 'string' ? body.error : 'server_error');
  const description = typeof body.error_description === 'string' ? body.error_description : undefined;
  return errorPage(site, locale, code, description, requestId, logo);
}
