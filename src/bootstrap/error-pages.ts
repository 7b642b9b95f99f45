import type { Request } from 'express';
import { requestPathOf } from '../common/errors/error-routes.js';
import { VCI_PATHS } from '../credential-issuer/credential-issuer-paths.js';
import { INTERACTION_PATH, OIDC_ROUTES } from '../oidc/provider/routes.js';

/** The broker pages of a login (InteractionController), not the JSON status its waiting pages' scripts poll. */
const BROKER_PAGE = new RegExp(`^${INTERACTION_PATH}/[^/]+(/choose|/cancel|/eid/[^/]+(/return|/start)?)?$`);

/**
 * The routes a person's browser opens, whose errors are the error page (error-representation.ts): the authorization
 * endpoint (spec 4.2.2: an error that cannot be redirected; a SAML request at the same address too), the broker
 * pages, the upstream eIDs' callback, and the credential issuer's authorization endpoint and revocation links.
 */
export function answersPage(req: Request): boolean {
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
