import type { NextFunction, Request, Response } from 'express';
import { refuseCharactersInRequest } from '../common/http/refuse-characters.middleware.js';
import { isProviderRequest } from '../oidc/provider/routes.js';

/**
 * The refusal of NULs and lone surrogates with the service's knowledge: which bodies the engine reads itself
 * (POSTs to its routes). The authorization endpoint's refusal is the error page of spec 4.2.2 (error-pages.ts;
 * never a redirect here: nothing in such a request can be trusted).
 */
export const refuseBadCharacters = () =>
  refuseCharactersInRequest({
    engineReadsBody: (req) => req.method === 'POST' && isProviderRequest(req.method, req.path),
    decodesParameters: (req) => isProviderRequest(req.method, req.path),
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
