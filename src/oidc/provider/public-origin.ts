import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error.js';
import { logger } from '../../common/logging/logger.js';
import type { AppConfig } from '../../config/load-config.js';

/**
 * An https service reached over plain http. Behind a TLS-terminating proxy without TRUST_PROXY every
 * request looks like this, and the engine refuses to set its secure cookies (a 500 on every login);
 * without a proxy the cookies would really travel in clear. Either way it is refused, saying why.
 */
export class InsecureTransportError extends AppError {
  constructor(trustProxy: boolean) {
    super(
      400,
      'invalid_request',
      trustProxy
        ? 'this service is https only and the request arrived over plain http (X-Forwarded-Proto is not https): reach it through its TLS proxy'
        : 'this service is https only and the request arrived over plain http: behind a TLS-terminating proxy the service needs TRUST_PROXY=true',
    );
  }
}

/** Whether the configuration can only work behind a proxy it does not trust (start-up notice). */
export function proxyMisconfiguration(config: Pick<AppConfig, 'baseUrl' | 'trustProxy'>): string | undefined {
  if (config.trustProxy || !config.baseUrl.startsWith('https://')) return undefined;
  return 'BASE_URL is https but TRUST_PROXY=false: the service listens on plain http, so it must be behind a TLS-terminating proxy, which it does not trust; every login will be refused until TRUST_PROXY=true';
}

/**
 * The origin the engine builds its URLs from (discovery endpoints, redirects). Without TRUST_PROXY the
 * request's Host is not ours to believe (cache poisoning of discovery): it is replaced by BASE_URL's host
 * before anything reads it, and X-Forwarded-* are dropped. With TRUST_PROXY the proxy's headers decide.
 */
export function publicOriginMiddleware(config: Pick<AppConfig, 'baseUrl' | 'trustProxy'>, guards: (req: Request) => boolean) {
  const base = new URL(config.baseUrl);
  const httpsOnly = base.protocol === 'https:';
  let told = false;
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!config.trustProxy) {
      req.headers.host = base.host;
      for (const h of ['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded']) delete req.headers[h];
    }
    if (!httpsOnly || req.protocol === 'https' || !guards(req)) return next();
    const error = new InsecureTransportError(config.trustProxy);
    if (!told) {
      told = true;
      logger.error({ trust_proxy: config.trustProxy, base_url: config.baseUrl }, `refusing plain-http requests: ${error.description}`);
    }
    // The error renderer answers it: the error page at the authorization endpoint and on the broker pages.
    next(error);
  };
}
