import type { NextFunction, Request, Response } from 'express';
import { logger } from '../../common/logging/logger.js';
import { requestIdOf } from '../../common/logging/request-context.js';
import type { MerchantEntity } from '../../merchants/merchant.entity.js';
import type { MerchantsService } from '../../merchants/merchants.service.js';
import type { OutboundPolicy } from '../../common/outbound/outbound-fetch.js';
import { fetchRequestObject, RequestUriError } from './request-uri-fetcher.js';
import { isRegisteredRequestUri } from './request-uri-registration.js';
import { OIDC_ROUTES } from './routes.js';

const PAR_URN = 'urn:ietf:params:oauth:request_uri:';

/**
 * The engine resolves only its own pushed-request URNs; a request_uri that is a URL is fetched here and
 * handed on as `request`. Nothing is fetched before the client is known (an enabled merchant) and the URL
 * is one it registered (discovery: require_request_uri_registration), so the endpoint cannot be pointed
 * at arbitrary hosts. A failure answers like any authorization error (spec 4.2.2): a redirect to the
 * merchant when client_id and redirect_uri are trustworthy, else an error page; always the same description.
 */
export function requestUriMiddleware(merchants: MerchantsService, policy: OutboundPolicy) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const requestUri = req.query.request_uri;
    if (req.method !== 'GET' || req.path !== OIDC_ROUTES.authorization || typeof requestUri !== 'string' || requestUri.startsWith(PAR_URN)) return next();
    const params = new URLSearchParams(req.url.split('?')[1] ?? '');
    const clientId = params.get('client_id');
    let merchant: MerchantEntity | undefined;
    try {
      merchant = clientId ? await merchants.findEnabled(clientId) : undefined;
      if (!merchant) throw new RequestUriError('request_uri with an unknown or disabled client_id (not fetched)');
      if (!isRegisteredRequestUri(merchant.requestUris ?? [], requestUri))
        throw new RequestUriError('request_uri is not registered for the client (not fetched)');
      const jwt = await fetchRequestObject(requestUri, policy);
      params.delete('request_uri');
      params.set('request', jwt);
      req.url = req.originalUrl = `${req.path}?${params.toString()}`;
      return next();
    } catch (e) {
      if (!(e instanceof RequestUriError)) return next(e);
      logger.info({ code: e.code, detail: e.detail, request_id: requestIdOf(req) }, 'request_uri refused');
      const redirect = trustedRedirect(merchant, params);
      if (redirect) {
        redirect.searchParams.set('error', e.code);
        redirect.searchParams.set('error_description', e.description);
        const state = params.get('state');
        if (state) redirect.searchParams.set('state', state);
        res.redirect(303, redirect.toString());
        return;
      }
      // No redirect URI to trust: the error renderer answers it (the error page, in the request's ui_locale).
      next(e);
    }
  };
}

function trustedRedirect(merchant: MerchantEntity | undefined, params: URLSearchParams): URL | undefined {
  const redirectUri = params.get('redirect_uri');
  return merchant && redirectUri && merchant.redirectUris.includes(redirectUri) ? new URL(redirectUri) : undefined;
}
