import type { AppEnv } from '../config/app-config.js';
import { type MerchantSamlSettings, samlSettingProblems } from './saml-settings.js';
import { unknownScopes } from './scopes.js';
import { fapi2SettingProblems } from './fapi2-policy.js';
import { mutualTlsSettingProblems, mutualTlsSettingsOf, type MutualTlsSettings } from './mutual-tls-settings.js';
import type { MerchantEntity } from './merchant.entity.js';

export interface MerchantSettings extends MutualTlsSettings {
  redirectUris: string[];
  subjectType?: string;
  scope: string | null;
  tokenEndpointAuthMethod: string;
  idTokenEncryptedResponseAlg: string | null;
  userinfoEncryptedResponseAlg: string | null;
  jwksUri: string | null;
  jwks: { keys: unknown[] } | null;
  requestObjectSigningAlg: string | null;
  requestUris: string[];
  postLogoutRedirectUris?: string[];
  encryptionKeyId: string | null;
  requestObjectKeyId: string | null;
  backchannelTokenDeliveryMode: string;
  backchannelClientNotificationEndpoint: string | null;
  backchannelAuthenticationRequestSigningAlg?: string | null;
  backchannelUserCodeParameter?: boolean;
  dpopBoundAccessTokens?: boolean;
  requireSignedRequestObject?: boolean;
  saml?: MerchantSamlSettings | null;
  /** `default` or `fapi2` (fapi2-policy.ts). */
  securityProfile?: string;
  idTokenSignedResponseAlg?: string;
}

/**
 * Why pairwise merchants get no CIBA. The engine (as CIBA Core 4 intends) needs a pairwise CIBA client to register
 * a jwks_uri, a sector_identifier_uri (it has redirect URIs as well) and private_key_jwt, so that the sector of
 * its subjects is one it proves it controls. This service offers no sector_identifier_uri: a pairwise merchant's
 * sector is its redirect URIs' host, shared by its OIDC and SAML subjects; inventing one for the engine would
 * be false metadata, and a real one would change the merchant's existing subjects.
 */
export const PAIRWISE_CIBA_REASON =
  'CIBA needs a public subject type: pairwise CIBA clients must register a sector_identifier_uri (CIBA Core 4), which this service does not offer';

const LOCALHOST = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Rules that span fields or depend on the environment; field shapes are the DTOs' job.
 * Returns field -> messages; empty when the settings are acceptable.
 */
/* eslint-disable-next-line complexity -- a flat list of independent checks, one per cross-field rule, each adding its
   own message; every branch is a separate rule, not a path through one */
export function merchantSettingProblems(s: MerchantSettings, env: AppEnv): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);

  const httpsOnly = (field: string, uris: string[]) => {
    for (const uri of uris) {
      const url = new URL(uri);
      if (url.protocol === 'http:' && (env === 'production' || !LOCALHOST.has(url.hostname)))
        add(field, `${uri}: must use https${env === 'production' ? '' : ' (plain http only for localhost in customer-test)'}`);
    }
    if (new Set(uris).size !== uris.length) add(field, 'values must be unique');
  };
  httpsOnly('redirect_uris', s.redirectUris);
  // Pairwise subjects are computed per sector, the redirect URIs' host (OIDC Core §8.1); several hosts would
  // need a sector_identifier_uri, which is not offered, so the engine would refuse the merchant at login.
  if (s.subjectType === 'pairwise' && new Set(s.redirectUris.map((u) => new URL(u).host)).size > 1)
    add('subject_type', 'pairwise needs redirect_uris on a single host');
  // Only registered request_uris are ever fetched (SSRF): the same https rule as redirect URIs.
  httpsOnly('request_uris', s.requestUris);
  // The logout's return address is a redirect like any other: exact, and https outside customer-test's localhost.
  httpsOnly('post_logout_redirect_uris', s.postLogoutRedirectUris ?? []);
  if (s.scope) for (const unknown of unknownScopes(s.scope)) add('scope', `${unknown} is not a scope of this service`);
  if (s.jwksUri && s.jwks) add('jwks', 'give jwks or jwks_uri, not both');
  if (s.jwksUri) httpsOnly('jwks_uri', [s.jwksUri]);
  // Spec 4.2.3 / 5.5: a named key must exist. Checked here for an inline set; a jwks_uri set is only
  // known when fetched, so there the key is looked for at use and nothing else is used without it.
  for (const [field, kid] of [
    ['encryption_key_id', s.encryptionKeyId],
    ['request_object_key_id', s.requestObjectKeyId],
  ] as const) {
    if (!kid) continue;
    if (!s.jwks && !s.jwksUri) add(field, 'needs jwks or jwks_uri holding that key');
    else if (s.jwks && !s.jwks.keys.some((k) => (k as { kid?: unknown }).kid === kid)) add(field, `no key with kid "${kid}" in jwks`);
  }
  const hasKeys = Boolean(s.jwksUri || s.jwks);
  if (s.idTokenEncryptedResponseAlg && !hasKeys) add('id_token_encrypted_response_alg', 'needs jwks or jwks_uri with an encryption key');
  if (s.userinfoEncryptedResponseAlg && !hasKeys) add('userinfo_encrypted_response_alg', 'needs jwks or jwks_uri with an encryption key');
  if (s.tokenEndpointAuthMethod === 'private_key_jwt' && !hasKeys) add('token_endpoint_auth_method', 'private_key_jwt needs jwks or jwks_uri');
  if (s.requestObjectSigningAlg && !hasKeys) add('request_object_signing_alg', 'needs jwks or jwks_uri with the verification key');
  if (s.requireSignedRequestObject && !hasKeys) add('require_signed_request_object', 'needs jwks or jwks_uri with the verification key');
  if (s.backchannelAuthenticationRequestSigningAlg && !hasKeys)
    add('backchannel_authentication_request_signing_alg', 'needs jwks or jwks_uri with the verification key');
  // Callbacks go out through the same address filter as request_uri fetches (ciba/outbox); https in production.
  if (s.backchannelClientNotificationEndpoint) httpsOnly('backchannel_client_notification_endpoint', [s.backchannelClientNotificationEndpoint]);
  if (s.backchannelTokenDeliveryMode !== 'poll' && !s.backchannelClientNotificationEndpoint)
    add('backchannel_client_notification_endpoint', `required for ${s.backchannelTokenDeliveryMode} delivery`);
  // Push hands the tokens over with no token request, so with no DPoP proof to bind them to (RFC 9449 §5.2 binds at the token endpoint).
  if (s.dpopBoundAccessTokens && s.backchannelTokenDeliveryMode === 'push')
    add('dpop_bound_access_tokens', 'push delivery sends tokens without a token request, so they cannot be DPoP-bound: use poll or ping');
  // CIBA is not offered to pairwise merchants (PAIRWISE_CIBA_REASON): their CIBA settings would promise what is refused.
  if (s.subjectType === 'pairwise') {
    const ciba = [
      s.backchannelTokenDeliveryMode !== 'poll' && 'backchannel_token_delivery_mode',
      s.backchannelClientNotificationEndpoint && 'backchannel_client_notification_endpoint',
      s.backchannelUserCodeParameter && 'backchannel_user_code_parameter',
      s.backchannelAuthenticationRequestSigningAlg && 'backchannel_authentication_request_signing_alg',
    ].filter(Boolean);
    if (ciba.length) add('subject_type', `pairwise merchants cannot use CIBA (${ciba.join(', ')} set): ${PAIRWISE_CIBA_REASON}`);
  }
  if (s.saml) samlSettingProblems(s.saml, s.scope, httpsOnly, add);
  fapi2SettingProblems(s, add);
  mutualTlsSettingProblems(s, add);
  return problems;
}

/** The settings the rules read, from a merchant row (unset columns as the rules expect them). */
export function merchantSettingsOf(entity: MerchantEntity): MerchantSettings {
  return {
    redirectUris: entity.redirectUris ?? [],
    subjectType: entity.subjectType ?? 'public',
    scope: entity.scope ?? null,
    tokenEndpointAuthMethod: entity.tokenEndpointAuthMethod ?? 'client_secret_basic',
    idTokenEncryptedResponseAlg: entity.idTokenEncryptedResponseAlg ?? null,
    userinfoEncryptedResponseAlg: entity.userinfoEncryptedResponseAlg ?? null,
    jwksUri: entity.jwksUri ?? null,
    jwks: entity.jwks ?? null,
    requestObjectSigningAlg: entity.requestObjectSigningAlg ?? null,
    requestUris: entity.requestUris ?? [],
    postLogoutRedirectUris: entity.postLogoutRedirectUris ?? [],
    encryptionKeyId: entity.encryptionKeyId ?? null,
    requestObjectKeyId: entity.requestObjectKeyId ?? null,
    backchannelTokenDeliveryMode: entity.backchannelTokenDeliveryMode ?? 'poll',
    backchannelClientNotificationEndpoint: entity.backchannelClientNotificationEndpoint ?? null,
    backchannelAuthenticationRequestSigningAlg: entity.backchannelAuthenticationRequestSigningAlg ?? null,
    backchannelUserCodeParameter: entity.backchannelUserCodeParameter ?? false,
    dpopBoundAccessTokens: Boolean(entity.dpopBoundAccessTokens),
    requireSignedRequestObject: Boolean(entity.requireSignedRequestObject),
    saml: entity.saml ?? null,
    securityProfile: entity.securityProfile,
    idTokenSignedResponseAlg: entity.idTokenSignedResponseAlg,
    ...mutualTlsSettingsOf(entity),
  };
}
