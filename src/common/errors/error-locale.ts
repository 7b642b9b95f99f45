import type { Request, Response } from 'express';
import { isUiLocale, pickLocale, type UiLocale } from '../../i18n/locales.js';

/**
 * The language of every error page, picked this one way, first usable of:
 * 1. the login's own language (`res.locals.uiLocale`, set by the broker pages from the login's ui_locale /
 *    ui_locales and the merchant's default): an error inside a login speaks the language its pages spoke;
 * 2. the request's own `ui_locale`, then `ui_locales` (the engine's checked parameters where the engine answers,
 *    else the query string): the authorization request and the SAML request carry the merchant's wish;
 * 3. the browser's Accept-Language;
 * 4. en_GB.
 * An unknown value at any step is passed over (pickLocale): a person never loses a page over a language tag.
 */
export function errorPageLocale(req: Request, res?: Response, params?: Readonly<Record<string, unknown>>): UiLocale {
  const loginLocale: unknown = res?.locals?.uiLocale;
  if (isUiLocale(loginLocale)) return loginLocale;
  const asked = params ?? queryOf(req);
  return pickLocale(asked.ui_locale, asked.ui_locales, req.headers['accept-language']);
}

/** The query's first values, read from the raw URL (the light path's requests have no parsed query). */
function queryOf(req: Request): Record<string, string | null> {
  const query = new URLSearchParams((req.originalUrl ?? req.url ?? '').split('?')[1] ?? '');
  return { ui_locale: query.get('ui_locale'), ui_locales: query.get('ui_locales') };
}
