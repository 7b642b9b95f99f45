/**
 * The spec's endpoint paths (section 4), relative to BASE_URL. oidc-provider is mounted at the root, so
 * these are its route settings as they are; discovery is served at the issuer's well-known path.
 */
export const OIDC_ROUTES = {
  authorization: '/its/index.html',
  token: '/oidc/token',
  userinfo: '/oidc/userinfo',
  jwks: '/oidc/jwks',
  pushed_authorization_request: '/oidc/par',
  revocation: '/oidc/token/revocation',
  backchannel_authentication: '/oidc/ciba.html',
  end_session: '/oidc/session/end',
  introspection: '/oidc/token/introspection',
} as const;

export const ISSUER_PATH = '/oidc';
export const DISCOVERY_PATH = '/oidc/.well-known/openid-configuration';
export const INTERACTION_PATH = '/its/interaction';

/**
 * Whether a request belongs to oidc-provider (everything else, DELETE /oidc/token included, goes to Nest,
 * which answers unknown paths with the JSON error object).
 */
export function isProviderRequest(method: string, path: string): boolean {
  if (path === DISCOVERY_PATH) return method === 'GET' || method === 'OPTIONS';
  if (path === OIDC_ROUTES.token || path === OIDC_ROUTES.backchannel_authentication) return method === 'POST' || method === 'OPTIONS';
  if (path === OIDC_ROUTES.authorization || path.startsWith(`${OIDC_ROUTES.authorization}/`)) return true;
  return [
    OIDC_ROUTES.userinfo,
    OIDC_ROUTES.jwks,
    OIDC_ROUTES.pushed_authorization_request,
    OIDC_ROUTES.revocation,
    // The global logout: its page, /confirm (the form's POST) and /success.
    OIDC_ROUTES.end_session,
  ].some((route) => path === route || path.startsWith(`${route}/`));
}
