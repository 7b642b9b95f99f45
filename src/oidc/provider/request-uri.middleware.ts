import type { NextFunction, Request, Response } from 'express';
import { requestIdOf } from '../../common/logging/request-context.js';
import type { MerchantsService } from '../../merchants/merchants.service.js';
import { pickLocale } from '../interaction/i18n/locales.js';
import { errorPage } from './error-page.js';
import { fetchRequestObject, RequestUriError } from './request-uri-fetcher.js';
import { OIDC_ROUTES } from './routes.js';

const PAR_URN = 'urn:ietf:params:oauth:request_uri:';

/**
 * The engine resolves only its own pushed-request URNs; a request_uri that is a URL is fetched here and
 * handed on as `request`. A failure answers like any authorization error (spec 4.2.2): a redirect to the
 * merchant when client_id and redirect_uri are trustworthy, else an error page.
 */
export function requestUriMiddleware(merchants: MerchantsService, allowPrivateAddresses: boolean) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const requestUri = req.query.request_uri;
    if (req.method !== 'GET' || req.path !== OIDC_ROUTES.authorization || typeof requestUri !== 'string' || requestUri.startsWith(PAR_URN))
      return next();
    const params = new URLSearchParams(req.url.split('?')[1] ?? '');
    try {
      const jwt = await fetchRequestObject(requestUri, allowPrivateAddresses);
      params.delete('request_uri');
      params.set('request', jwt);
      req.url = req.originalUrl = `${req.path}?${params.toString()}`;
      return next();
    } catch (e) {
      if (!(e instanceof RequestUriError)) return next(e);
      const redirect = await trustedRedirect(merchants, params);
      if (redirect) {
        redirect.searchParams.set('error', 'invalid_request_uri');
        redirect.searchParams.set('error_description', e.message);
        const state = params.get('state');
        if (state) redirect.searchParams.set('state', state);
        res.redirect(303, redirect.toString());
        return;
      }
      const locale = pickLocale(params.get('ui_locale'), params.get('ui_locales'));
      res.status(400).type('html').send(errorPage(locale, 'invalid_request_uri', e.message, requestIdOf(req)));
    }
  };
}

async function trustedRedirect(merchants: MerchantsService, params: URLSearchParams): Promise<URL | undefined> {
  const clientId = params.get('client_id');
  const redirectUri = params.get('redirect_uri');
  if (!clientId || !redirectUri) return undefined;
  const merchant = await merchants.findEnabled(clientId);
  return merchant?.redirectUris.includes(redirectUri) ? new URL(redirectUri) : undefined;
}
