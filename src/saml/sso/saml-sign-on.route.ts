import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { SAML_PATHS } from '../saml-entity.js';
import { isSamlRequest, type SamlSsoService } from './saml-sso.service.js';

/**
 * The SAML front door's route: `GET /its/index.html` with SAML parameters (`mid` or `providerId`). It stands at the
 * edge, just before the engine, because that address is also the engine's authorization endpoint, whose requests
 * skip Nest's router (bootstrap/engine-light-path.ts); every other request there goes on to the engine untouched. A
 * SAML request is answered here: checked, started as a brokered login through the core, and the browser redirected
 * (303) to where the login goes on. A refusal is thrown on to the error renderer, before any merchant is known.
 */
export function samlSignOnRoute(sso: SamlSsoService): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' || req.path !== SAML_PATHS.sso || !isSamlRequest(req.query)) return next();
    sso.begin(req.query).then(({ location }) => res.set('Cache-Control', 'no-store').redirect(303, location), next);
  };
}
