/**
 * ANCHOR_CONFIG=spec: the bare engine, still unmodified and with the anchor's own stores and pages, configured as the
 * service configures it (src/oidc/provider/provider-configuration.ts): the same features (encryption, request
 * objects, PAR, the claims parameter, revocation, logout, CIBA, signed user-info), algorithms, scopes and claims,
 * client authentication methods, pairwise subjects, extra parameters and client metadata; clients read through an
 * adapter on each request, as the service's merchants are, with the metadata a merchant gets. The engine's share of
 * the service's cost: what the spec's configuration costs the engine itself, apart from anything the service adds.
 * The CIBA hooks are never called on the code flow; they refuse.
 */
import { createHmac } from 'node:crypto';
import { errors, type Configuration } from 'oidc-provider';
import { EXTRA_PARAMS } from '../../src/oidc/provider/extra-params.js';
import { CLIENT_AUTH_METHODS, ENABLED_JWA, ENGINE_SCOPES, engineClaims, PLAIN_FEATURES } from '../../src/oidc/provider/provider-configuration.js';
import type { ANCHOR_CLIENTS } from './anchor-clients.js';

const CIBA_GRANT = 'urn:openid:params:grant-type:ciba';
const refuse = () => {
  throw new errors.InvalidRequest('not used by the anchor');
};

/** A merchant's client metadata as the service hands it to the engine (merchant-client.ts, toClientMetadata). */
function merchantMetadata(c: (typeof ANCHOR_CLIENTS)[number], redirectUri: string) {
  return {
    client_id: c.client_id,
    client_secret: c.client_secret,
    client_name: c.client_id,
    redirect_uris: [redirectUri],
    post_logout_redirect_uris: [],
    response_types: ['code'],
    grant_types: ['authorization_code', 'refresh_token', CIBA_GRANT],
    token_endpoint_auth_method: 'client_secret_basic',
    id_token_signed_response_alg: c.id_token_signed_response_alg,
    userinfo_signed_response_alg: c.id_token_signed_response_alg,
    require_auth_time: true,
    psd2: false,
    subject_type: 'public',
    backchannel_token_delivery_mode: 'poll',
    backchannel_user_code_parameter: false,
  };
}

export function specConfiguration(clients: typeof ANCHOR_CLIENTS, redirectUri: string, stored: (model: string) => unknown): Partial<Configuration> {
  const byId = new Map(clients.map((c) => [c.client_id, c]));
  // A fresh object per read, as the service's adapter builds it from the merchant row.
  const clientAdapter = { find: async (id: string) => (byId.has(id) ? merchantMetadata(byId.get(id)!, redirectUri) : undefined) };
  return {
    adapter: ((name: string) => (name === 'Client' ? clientAdapter : stored(name))) as unknown as Configuration['adapter'],
    clients: [],
    scopes: ENGINE_SCOPES,
    claims: engineClaims(),
    acrValues: ['urn:anchor:acr:high', 'urn:anchor:acr:eidas-high'],
    responseTypes: ['code'],
    subjectTypes: ['public', 'pairwise'],
    pairwiseIdentifier: async (_ctx, sub, client) => createHmac('sha256', 'anchor-pairwise').update(`${client.clientId}\n${sub}`).digest('base64url'),
    clientAuthMethods: CLIENT_AUTH_METHODS,
    enabledJWA: ENABLED_JWA,
    features: {
      ...PLAIN_FEATURES,
      // The service's logout pages and CIBA hooks need the running service; the code flow calls neither.
      rpInitiatedLogout: { enabled: true },
      ciba: {
        enabled: true,
        deliveryModes: ['poll', 'ping'],
        processLoginHint: refuse,
        processLoginHintToken: refuse,
        verifyUserCode: refuse,
        validateBindingMessage: refuse,
        validateRequestContext: refuse,
        triggerAuthenticationDevice: refuse,
      },
    } as Configuration['features'],
    pkce: { required: (_ctx, client) => client.psd2 === true },
    extraParams: EXTRA_PARAMS as unknown as Configuration['extraParams'],
    extraClientMetadata: { properties: ['psd2', 'eid_schemes', 'logo_sha256'], validator: () => undefined },
    rotateRefreshToken: true,
    conformIdTokenClaims: false,
    allowOmittingSingleRegisteredRedirectUri: false,
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
  };
}
