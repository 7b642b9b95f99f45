import type { Configuration, JWK, KoaContextWithOIDC } from 'oidc-provider';
import { errors, interactionPolicy } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/load-config.js';
import { ACR_EIDAS_HIGH, ACR_REQUEST_HIGH } from '../../broker/spi/acr.js';
import type { MerchantsService } from '../../merchants/merchants.service.js';
import { STANDARD_SCOPES } from '../../merchants/scopes.js';
import { AGE_VERIFY_SCOPES } from '../../verifier-claims/age.js';
import { claimsByScope } from '../../verifier-claims/claim-table.js';
import { UI_LOCALES } from '../../i18n/locales.js';
import type { BrokeredLoginsService } from '../../broker/logins/brokered-logins.service.js';
import { engineAdapters } from '../storage/adapter-factory.js';
import type { RedisModelStore } from '../storage/redis-model-store.js';
import { accountFinder } from './account-finder.js';
import { VERIFIED_CLAIMS } from '../identity-assurance/verified-claims.js';
import { assertClaimsParameter } from '../identity-assurance/claims-parameter.js';
import type { CibaHooksSlot } from './ciba-hooks.js';
import { engineErrorPage } from '../../common/errors/engine-error-hook.js';
import { pageSiteOf } from '../../common/pages/layout.js';
import { logoutPages } from './logout-pages.js';
import { extraParams, type LoginOwnerCheck, pkceRequired } from './extra-params.js';
import { clientLogo, MerchantClientAdapter } from './merchant-client.js';
import { pairwiseSubject } from '../../broker/spi/subjects/pairwise.js';
import { INTERACTION_PATH, OIDC_ROUTES } from './routes.js';
import { assertClientAssertionClock, assertRequestObjectClock } from './fapi-clock.js';
import { authorizationCodeTtl, FAPI_FEATURE, rotateRefreshToken } from './fapi-profile.js';
import { mutualTlsFeature } from './mutual-tls.js';
import type { ClientCertificateRevocation } from './client-certificate-revocation.js';
import { dpopFeature } from './dpop.js';

export interface ProviderDependencies {
  config: AppConfig;
  dataSource: DataSource;
  merchants: MerchantsService;
  logins: BrokeredLoginsService;
  signingKeys: JWK[];
  /** The engine's Client model: merchants as client metadata (memoizeClientLookup keys on what it hands out). */
  clients: MerchantClientAdapter;
  ciba: CibaHooksSlot;
  /** The short-lived models' store when REDIS_URL is set (adapter-factory.ts); null: all in the database. */
  redis: RedisModelStore | null;
  /** Whether a request's sealed owner is the broker core's (a login another front door started: LoginRequests). */
  isOwnedLogin: LoginOwnerCheck;
  /** The CRLs of tls_client_auth certificates (CLIENT_CERT_CRL_FILE); lives across engine rebuilds. */
  revocation?: ClientCertificateRevocation;
}

export const ID_TOKEN_TTL_SECONDS = 900;
export const ACCESS_TOKEN_TTL_SECONDS = 900;
const ENCRYPTION_ENCS = ['A256GCM', 'A128GCM', 'A128CBC-HS256', 'A256CBC-HS512'];

/**
 * Every login is per merchant: a session made for one merchant never logs the user in to another.
 * `prompt=select_account` (spec 2.9) shows the broker page again, as there is no account list to show.
 */
function loginPolicy(logins: BrokeredLoginsService) {
  const { Check, Prompt } = interactionPolicy;
  const policy = interactionPolicy.base();
  policy.add(
    new Prompt(
      { name: 'select_account', requestable: true },
      new Check('select_account_requested', 'account selection was requested', (ctx: KoaContextWithOIDC) =>
        ctx.oidc.promptPending('select_account') ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
      ),
    ),
    0,
  );
  // For prompt=none the answer must be the one for no session at all (login_required, the engine's own
  // description): anything else would tell the merchant that the user holds a login with another one.
  const login = policy.get('login')!;
  login.checks.add(
    new Check('login_for_other_merchant', login.checks.get('no_session')!.description, 'login_required', async (ctx: KoaContextWithOIDC) => {
      const { session, client, result } = ctx.oidc;
      if (!session?.accountId || !client) return Check.NO_NEED_TO_PROMPT;
      // A login this very interaction finished stored its brokered login for this merchant first (interaction
      // service, finishLogin): nothing to look up (one database round trip less per login).
      if (result?.login) return Check.NO_NEED_TO_PROMPT;
      const grantId = session.grantIdFor(client.clientId);
      const login = grantId ? await logins.findByGrant(grantId) : undefined;
      return login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT;
    }),
  );
  return policy;
}

/**
 * azp and amr come from the engine and the login, `eid_scheme` and `eid_issuer` (which scheme, and for a
 * brokered upstream its issuer) from the login; they must be listed to pass the engine's claim filter.
 */
export function engineClaims(): Record<string, string[]> {
  const claims = claimsByScope();
  return { ...claims, openid: [...claims.openid, 'azp', 'amr', 'eid_scheme', 'eid_issuer', VERIFIED_CLAIMS] };
}

export const ENGINE_SCOPES = [...STANDARD_SCOPES, ...AGE_VERIFY_SCOPES];
export const CLIENT_AUTH_METHODS: Configuration['clientAuthMethods'] = ['client_secret_basic', 'client_secret_post', 'client_secret_jwt', 'private_key_jwt'];
/** RFC 8705 §2: by the certificate the TLS-terminating proxy verified (mutual-tls.ts). */
const MTLS_AUTH_METHODS: Configuration['clientAuthMethods'] = ['tls_client_auth', 'self_signed_tls_client_auth'];

export const ENABLED_JWA = {
  idTokenSigningAlgValues: ['RS256', 'ES256'],
  userinfoSigningAlgValues: ['RS256', 'ES256'],
  requestObjectSigningAlgValues: ['RS256', 'PS256', 'ES256'],
  // JARM (response_mode jwt): our signature, by the merchant's authorization_signed_response_alg (RS256 by default, ES256 for fapi2).
  authorizationSigningAlgValues: ['RS256', 'ES256'],
  // Not offered: FAPI 2.0 Message Signing §6.1 advises against encrypted authorization responses (they carry nothing secret).
  authorizationEncryptionAlgValues: [],
  authorizationEncryptionEncValues: [],
  clientAuthSigningAlgValues: ['RS256', 'ES256', 'PS256', 'HS256'],
  idTokenEncryptionAlgValues: ['RSA-OAEP-256'],
  idTokenEncryptionEncValues: ENCRYPTION_ENCS,
  userinfoEncryptionAlgValues: ['RSA-OAEP-256'],
  userinfoEncryptionEncValues: ENCRYPTION_ENCS,
} as Configuration['enabledJWA'];

/** The engine's features that need nothing of the running service (logout's pages and CIBA's hooks do). */
export const PLAIN_FEATURES = {
  devInteractions: { enabled: false },
  userinfo: { enabled: true },
  jwtUserinfo: { enabled: true },
  encryption: { enabled: true },
  // The engine's checks, plus FAPI 2.0 SP 5.3.2.1's clock rule for fapi2 merchants (fapi-clock.ts).
  requestObjects: { enabled: true, requireSignedRequestObject: false, assertJwtClaimsAndHeader: assertRequestObjectClock },
  pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: false },
  // JARM: signed authorization responses for a merchant that asks (response_mode jwt) or is limited to them (response_modes).
  jwtResponseModes: { enabled: true },
  claimsParameter: { enabled: true, assertClaimsParameter },
  // RFC 7009 §2.1: a merchant revokes only its own tokens (the engine's default rule, stated so it is ours).
  revocation: {
    enabled: true,
    allowedPolicy: (_ctx: KoaContextWithOIDC, client: { clientId: string }, token: { clientId?: string }) => {
      if (token.clientId !== client.clientId) throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
      return true;
    },
  },
} satisfies Configuration['features'];

export function buildProviderConfiguration(deps: ProviderDependencies): Configuration {
  const { config, dataSource, logins, clients } = deps;
  const stored = engineAdapters({ dataSource, redis: deps.redis, replayRetentionSeconds: config.oidc.refreshTokenTtlSeconds });
  const secure = config.baseUrl.startsWith('https://');
  const cookie = { httpOnly: true, sameSite: 'lax' as const, secure, signed: true };
  return {
    adapter: (name: string) => (name === 'Client' ? clients : stored(name)),
    clients: [],
    findAccount: accountFinder(logins, config),
    jwks: { keys: deps.signingKeys },
    cookies: { keys: config.cookieKeys, long: cookie, short: cookie },
    routes: OIDC_ROUTES,
    scopes: ENGINE_SCOPES,
    claims: engineClaims(),
    acrValues: [ACR_REQUEST_HIGH, ACR_EIDAS_HIGH],
    responseTypes: ['code'],
    subjectTypes: ['public', 'pairwise'],
    pairwiseIdentifier: async (_ctx, sub, client) => pairwiseSubject(config.pairwiseSecret, String(client.sectorIdentifier ?? client.clientId), sub),
    clientAuthMethods: [...CLIENT_AUTH_METHODS!, ...MTLS_AUTH_METHODS!],
    assertJwtClientAuthClaimsAndHeader: assertClientAssertionClock,
    enabledJWA: ENABLED_JWA,
    features: {
      ...PLAIN_FEATURES,
      // The global logout: ends the broker session for OIDC and SAML merchants alike; our own pages.
      rpInitiatedLogout: { enabled: true, ...logoutPages(pageSiteOf(config)) },
      ciba: deps.ciba.engineFeature(),
      // Per merchant: the FAPI 2.0 Security Profile for fapi2 merchants only (fapi-profile.ts).
      fapi: FAPI_FEATURE,
      mTLS: mutualTlsFeature(config.clientCertificate, deps.revocation),
      // RFC 9449 for every merchant that sends proofs, required of those with dpop_bound_access_tokens (dpop.ts).
      dPoP: dpopFeature(config.oidc.dpopNonceSecret),
    },
    pkce: { required: pkceRequired(deps.isOwnedLogin) },
    extraParams: extraParams(deps.isOwnedLogin),
    extraClientMetadata: {
      properties: ['psd2', 'eid_schemes', 'logo_sha256', 'security_profile'],
      validator: (_ctx, key, value) => {
        if (key === 'psd2' && value !== undefined && typeof value !== 'boolean') throw new Error('psd2 must be a boolean');
      },
    },
    ttl: {
      IdToken: ID_TOKEN_TTL_SECONDS,
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: authorizationCodeTtl(config.oidc.authorizationCodeTtlSeconds),
      Interaction: 30 * 60,
      Session: 8 * 3600,
      Grant: config.oidc.refreshTokenTtlSeconds,
      RefreshToken: config.oidc.refreshTokenTtlSeconds,
      // requested_expiry is checked against its bounds by the CIBA module before the request is saved.
      BackchannelAuthenticationRequest: (ctx: KoaContextWithOIDC | undefined) => {
        const requested = Number(ctx?.oidc?.params?.requested_expiry);
        return Number.isSafeInteger(requested) && requested > 0 ? Math.min(requested, config.ciba.maxExpirySeconds) : config.ciba.maxExpirySeconds;
      },
    },
    rotateRefreshToken,
    // Spec 2.1: the verifier's claims are returned in the ID token as well as from user-info.
    conformIdTokenClaims: false,
    allowOmittingSingleRegisteredRedirectUri: false,
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}`, policy: loginPolicy(logins) },
    renderError: engineErrorPage(pageSiteOf(config), clientLogo),
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
    discovery: {
      ui_locales_supported: [...UI_LOCALES],
      claim_types_supported: ['normal'],
      // Claim values are not localised, except the interpreted country names, which are English.
      claims_locales_supported: ['en-GB'],
      display_values_supported: ['page', 'popup', 'touch', 'wap'],
      // Our page: where to start, and which face match levels our data validates (spec 2.2).
      service_documentation: `${config.baseUrl}/docs`,
      // Spec 2.8: required field, marked as unavailable.
      entity_statement_uri: null,
      // Only request_uris the merchant registered are fetched (no fetching on behalf of anyone: SSRF).
      require_request_uri_registration: true,
      // The CIBA members (spec 2.8) come from the engine's ciba feature: the delivery modes that work (poll, ping).
    },
  } as Configuration;
}
