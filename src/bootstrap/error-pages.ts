import type { Request } from 'express';
import { type ErrorRoutes, requestPathOf } from '../common/errors/error-routes.js';
import { pageSiteOf } from '../common/pages/layout.js';
import type { AppConfig } from '../config/load-config.js';
import { VCI_PATHS } from '../credential-issuer/credential-issuer-paths.js';
import { INTERACTION_PATH, OIDC_ROUTES } from '../oidc/provider/routes.js';
import { samlSoapFault } from '../saml/artifact/soap-fault.js';
import { SAML_PATHS } from '../saml/saml-entity.js';

/** The broker pages of a login (InteractionController), not the JSON status its waiting pages' scripts poll. */
const BROKER_PAGE = new RegExp(`^${INTERACTION_PATH}/[^/]+(/choose|/cancel|/eid/[^/]+(/return|/start|/offer)?)?$`);

/**
 * The routes a person's browser opens, whose errors are the error page (error-representation.ts): the authorization
 * endpoint (spec 4.2.2: an error that cannot be redirected; a SAML request at the same address too), the broker
 * pages, the upstream eIDs' callback, and the credential issuer's authorization endpoint and revocation links.
 */
function answersPage(req: Request): boolean {
  const path = requestPathOf(req);
  return (
    path === OIDC_ROUTES.authorization ||
    path.startsWith(`${OIDC_ROUTES.authorization}/`) ||
    BROKER_PAGE.test(path) ||
    path === '/its/eid/callback' ||
    path === `${VCI_PATHS.prefix}/authorize` ||
    path.startsWith(`${VCI_PATHS.prefix}/revoke/`)
  );
}

/** The service's error routes (useErrorRoutes): its pages, in its site's shell, and SAML artifact resolution's SOAP faults. */
export function serviceErrorRoutes(config: Pick<AppConfig, 'privacyNoticeUrl' | 'branding'>): ErrorRoutes {
  return { site: pageSiteOf(config), answersPage, soapFaults: new Map([[SAML_PATHS.artifactResolution, samlSoapFault]]) };
}
