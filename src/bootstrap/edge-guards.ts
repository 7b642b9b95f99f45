import type { NextFunction, Request, Response } from 'express';
import { refuseCharactersInRequest } from '../common/http/refuse-characters.middleware.js';
import { requestIdOf } from '../common/logging/request-context.js';
import { pickLocale } from '../i18n/locales.js';
import { errorPage } from '../common/pages/error-page.js';
import { isProviderRequest, OIDC_ROUTES } from '../oidc/provider/routes.js';
import type { PageSite } from '../common/pages/layout.js';

const isAuthorizationEndpoint = (req: Request) => req.path === OIDC_ROUTES.authorization || req.path.startsWith(`${OIDC_ROUTES.authorization}/`);

/**
 * The refusal of NULs and lone surrogates with the service's knowledge: which bodies the engine reads itself
 * (POSTs to its routes), and that the authorization endpoint answers a browser with the error page of spec
 * 4.2.2 (never a redirect here: nothing in such a request can be trusted).
 */
export const refuseBadCharacters = (site: PageSite) =>
  refuseCharactersInRequest({
    engineReadsBody: (req) => req.method === 'POST' && isProviderRequest(req.method, req.path),
    decodesParameters: (req) => isProviderRequest(req.method, req.path),
    htmlError: (req, description) => {
      if (!isAuthorizationEndpoint(req)) return undefined;
      const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
      return errorPage(site, pickLocale(query.get('ui_locale'), query.get('ui_locales'), req.headers['accept-language']), 'invalid_request', description, requestIdOf(req));
    },
  });

/** Under /its, only these are the same for everyone and may be cached (scripts, the favicon, merchant logos). */
const SHARED_ASSETS = '/its/assets/';

/**
 * Every broker page is about one person's login (their interaction, their choice of scheme, their error): a shared
 * cache or the browser's back-forward cache must never keep one. The engine sends no-store on its own pages (the
 * authorization endpoint, its error and logout pages); this covers ours under /its, set before any handler runs so
 * that error pages carry it too.
 */
export function noStoreOnBrokerPages(req: Request, res: Response, next: NextFunction): void {
  if (req.path.startsWith('/its/') && !req.path.startsWith(SHARED_ASSETS)) res.setHeader('Cache-Control', 'no-store');
  next();
}
