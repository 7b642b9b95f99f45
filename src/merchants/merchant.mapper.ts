import type { CreateMerchantDto } from './dto/create-merchant.dto.js';
import type { MerchantDto } from './dto/merchant-response.dto.js';
import type { UpdateMerchantDto } from './dto/update-merchant.dto.js';
import type { MerchantEntity } from './merchant.entity.js';
import { normalizeSamlSettings } from './saml-settings.js';

type Settable = Omit<MerchantEntity, 'id' | 'clientId' | 'clientSecretSealed' | 'logoSha256' | 'enabled' | 'secretRotatedAt' | 'createdAt' | 'updatedAt'>;

/** API field name -> entity property, for the fields an admin may set. */
const FIELD_MAP: Record<keyof CreateMerchantDto, keyof Settable> = {
  name: 'name',
  redirect_uris: 'redirectUris',
  scope: 'scope',
  eid_schemes: 'eidSchemes',
  psd2: 'psd2',
  security_profile: 'securityProfile',
  dpop_bound_access_tokens: 'dpopBoundAccessTokens',
  require_signed_request_object: 'requireSignedRequestObject',
  response_modes: 'responseModes',
  subject_type: 'subjectType',
  token_endpoint_auth_method: 'tokenEndpointAuthMethod',
  id_token_signed_response_alg: 'idTokenSignedResponseAlg',
  id_token_encrypted_response_alg: 'idTokenEncryptedResponseAlg',
  id_token_encrypted_response_enc: 'idTokenEncryptedResponseEnc',
  userinfo_encrypted_response_alg: 'userinfoEncryptedResponseAlg',
  userinfo_encrypted_response_enc: 'userinfoEncryptedResponseEnc',
  jwks_uri: 'jwksUri',
  jwks: 'jwks',
  encryption_key_id: 'encryptionKeyId',
  request_object_key_id: 'requestObjectKeyId',
  request_object_signing_alg: 'requestObjectSigningAlg',
  request_uris: 'requestUris',
  post_logout_redirect_uris: 'postLogoutRedirectUris',
  backchannel_token_delivery_mode: 'backchannelTokenDeliveryMode',
  backchannel_client_notification_endpoint: 'backchannelClientNotificationEndpoint',
  backchannel_user_code_parameter: 'backchannelUserCodeParameter',
  default_ui_locale: 'defaultUiLocale',
  logo_uri: 'logoUri',
  backchannel_authentication_request_signing_alg: 'backchannelAuthenticationRequestSigningAlg',
  saml: 'saml',
  offer_credential: 'offerCredential',
  reused_identity_max_age_days: 'reusedIdentityMaxAgeDays',
  tls_client_auth_subject_dn: 'tlsClientAuthSubjectDn',
  tls_client_auth_san_dns: 'tlsClientAuthSanDns',
  tls_client_auth_san_uri: 'tlsClientAuthSanUri',
  tls_client_auth_san_ip: 'tlsClientAuthSanIp',
  tls_client_auth_san_email: 'tlsClientAuthSanEmail',
  tls_client_certificate_bound_access_tokens: 'tlsClientCertificateBoundAccessTokens',
};

/** Applies the fields present in the DTO to the entity; returns the API names of the fields that changed. */
export function applyMerchantFields(entity: MerchantEntity, dto: CreateMerchantDto | UpdateMerchantDto): string[] {
  const changed: string[] = [];
  for (const [apiName, prop] of Object.entries(FIELD_MAP) as [keyof CreateMerchantDto, keyof Settable][]) {
    const value = dto[apiName];
    if (value === undefined) continue;
    const plain =
      apiName === 'jwks'
        ? JSON.parse(JSON.stringify(value))
        : apiName === 'saml'
          ? normalizeSamlSettings(value as Parameters<typeof normalizeSamlSettings>[0])
          : value;
    if (JSON.stringify(entity[prop]) !== JSON.stringify(plain)) changed.push(apiName);
    (entity as unknown as Record<string, unknown>)[prop] = plain;
  }
  return changed;
}

export function toMerchantDto(m: MerchantEntity): MerchantDto {
  const dto = {} as Record<string, unknown>;
  for (const [apiName, prop] of Object.entries(FIELD_MAP)) dto[apiName] = m[prop as keyof Settable] ?? null;
  return {
    client_id: m.clientId,
    ...(dto as Omit<MerchantDto, 'client_id' | 'enabled' | 'secret_rotated_at' | 'created_at' | 'updated_at'>),
    enabled: m.enabled,
    secret_rotated_at: m.secretRotatedAt.toISOString(),
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}
