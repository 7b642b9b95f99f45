import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { JSONWebKeySet } from 'jose';
import type { UiLocale } from '../i18n/locales.js';
import type { MerchantSamlSettings } from './saml-settings.js';

export const TOKEN_ENDPOINT_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'client_secret_jwt',
  'private_key_jwt',
  'tls_client_auth',
  'self_signed_tls_client_auth',
] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];
export const ID_TOKEN_SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type IdTokenSigningAlg = (typeof ID_TOKEN_SIGNING_ALGS)[number];
export const CIBA_DELIVERY_MODES = ['poll', 'ping', 'push'] as const;
export type CibaDeliveryMode = (typeof CIBA_DELIVERY_MODES)[number];
export const ENCRYPTION_ALGS = ['RSA-OAEP-256'] as const;
export const SUBJECT_TYPES = ['public', 'pairwise'] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];
export const ENCRYPTION_ENCS = ['A256GCM', 'A128GCM', 'A128CBC-HS256', 'A256CBC-HS512'] as const;
/**
 * The merchant's security profile: `default`, today's rules; `fapi2`, the FAPI 2.0 Security Profile's authorization server
 * requirements (PAR, PKCE S256, key-based client authentication, sender-constrained tokens; docs/oidc.md#fapi-20).
 */
export const SECURITY_PROFILES = ['default', 'fapi2'] as const;
export type SecurityProfile = (typeof SECURITY_PROFILES)[number];
/**
 * The response modes a merchant may be limited to (FAPI 2.0 Message Signing §5.3.3 `response_modes`): the plain ones and
 * JARM's signed ones (`jwt` is the signed answer in the code flow's default, the query).
 */
export const RESPONSE_MODES = ['query', 'fragment', 'form_post', 'jwt', 'query.jwt', 'fragment.jwt', 'form_post.jwt'] as const;
/** How many days after its document verification the service's own credential still earns eIDAS high: bounds and default. */
export const REUSED_IDENTITY_MAX_AGE_DAYS = Object.freeze({ min: 1, max: 3650, default: 30 });

/** A merchant (an OAuth client). The secret is sealed with the at-rest key; it is never stored in clear. */
@Entity('merchants')
export class MerchantEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'client_id', type: 'text', unique: true }) clientId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ name: 'client_secret_sealed', type: 'text' }) clientSecretSealed: string;
  @Column({ name: 'redirect_uris', type: 'jsonb' }) redirectUris: string[];
  /** Space-separated scopes the merchant may request; null = every scope of spec 2.3. */
  @Column({ type: 'text', nullable: true }) scope: string | null;
  /** eID scheme ids the merchant may use; null = every scheme enabled in this environment. */
  @Column({ name: 'eid_schemes', type: 'jsonb', nullable: true }) eidSchemes: string[] | null;
  @Column({ type: 'boolean', default: false }) psd2: boolean;
  @Column({ name: 'security_profile', type: 'text', default: 'default' }) securityProfile: SecurityProfile;
  /** RFC 9449 §5.2: every token request must carry a DPoP proof; the access tokens are then bound to its key. */
  @Column({ name: 'dpop_bound_access_tokens', type: 'boolean', default: false }) dpopBoundAccessTokens: boolean;
  /** RFC 9101 §10.5: every authorization request (and pushed request) must be a signed request object. */
  @Column({ name: 'require_signed_request_object', type: 'boolean', default: false }) requireSignedRequestObject: boolean;
  /** FAPI 2.0 Message Signing §5.3.3: the response modes the merchant may use; null, every one offered. */
  @Column({ name: 'response_modes', type: 'jsonb', nullable: true }) responseModes: string[] | null;
  /** OIDC subject type: public (one sub per person for every merchant) or pairwise (a sub of its own). */
  @Column({ name: 'subject_type', type: 'text', default: 'public' }) subjectType: SubjectType;
  @Column({ name: 'token_endpoint_auth_method', type: 'text', default: 'client_secret_basic' })
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  @Column({ name: 'id_token_signed_response_alg', type: 'text', default: 'RS256' }) idTokenSignedResponseAlg: IdTokenSigningAlg;
  @Column({ name: 'id_token_encrypted_response_alg', type: 'text', nullable: true }) idTokenEncryptedResponseAlg: string | null;
  @Column({ name: 'id_token_encrypted_response_enc', type: 'text', nullable: true }) idTokenEncryptedResponseEnc: string | null;
  @Column({ name: 'userinfo_encrypted_response_alg', type: 'text', nullable: true }) userinfoEncryptedResponseAlg: string | null;
  @Column({ name: 'userinfo_encrypted_response_enc', type: 'text', nullable: true }) userinfoEncryptedResponseEnc: string | null;
  /** The merchant's public keys (encryption, request objects, private_key_jwt): a JWKS URL or inline keys. */
  @Column({ name: 'jwks_uri', type: 'text', nullable: true }) jwksUri: string | null;
  @Column({ type: 'jsonb', nullable: true }) jwks: JSONWebKeySet | null;
  /** Key ids to use from that set; without one the first key of the set is used (spec 4.2.3, 5.5). */
  @Column({ name: 'encryption_key_id', type: 'text', nullable: true }) encryptionKeyId: string | null;
  @Column({ name: 'request_object_key_id', type: 'text', nullable: true }) requestObjectKeyId: string | null;
  @Column({ name: 'request_object_signing_alg', type: 'text', nullable: true }) requestObjectSigningAlg: string | null;
  /** request_uri values the merchant may use (OIDC registration `request_uris`); nothing else is fetched. */
  @Column({ name: 'request_uris', type: 'jsonb', default: () => "'[]'::jsonb" }) requestUris: string[];
  @Column({ name: 'backchannel_token_delivery_mode', type: 'text', default: 'poll' }) backchannelTokenDeliveryMode: CibaDeliveryMode;
  @Column({ name: 'backchannel_client_notification_endpoint', type: 'text', nullable: true })
  backchannelClientNotificationEndpoint: string | null;
  /** CIBA: backchannel requests must carry the user_code the user set in the app at provisioning. */
  @Column({ name: 'backchannel_user_code_parameter', type: 'boolean', default: false }) backchannelUserCodeParameter: boolean;
  /** CIBA Core 7.1.1: backchannel requests must be a `request` JWT signed with this algorithm (and the merchant's request-object key). */
  @Column({ name: 'backchannel_authentication_request_signing_alg', type: 'text', nullable: true }) backchannelAuthenticationRequestSigningAlg: string | null;
  /** Where the global logout may send the browser back to (OIDC `post_logout_redirect_uris`), exact match. */
  @Column({ name: 'post_logout_redirect_uris', type: 'jsonb', default: () => "'[]'::jsonb" }) postLogoutRedirectUris: string[];
  /** The broker pages' language when neither the request nor the browser names a usable one; null: en_GB. */
  @Column({ name: 'default_ui_locale', type: 'text', nullable: true }) defaultUiLocale: UiLocale | null;
  /** RFC 7591 logo_uri as registered; fetched once then (never at page time), see MerchantLogosService. */
  @Column({ name: 'logo_uri', type: 'text', nullable: true }) logoUri: string | null;
  /** The fetched logo's SHA-256 (merchant_logos), served at /its/assets/logos/<sha256>; null: no logo. */
  @Column({ name: 'logo_sha256', type: 'text', nullable: true }) logoSha256: string | null;
  /** The merchant as a SAML 1.1 relying party; null: no SAML. */
  @Column({ type: 'jsonb', nullable: true }) saml: MerchantSamlSettings | null;
  /** At the end of a sign-in with a passed document verification, offer the person the credential (OpenID4VCI). */
  @Column({ name: 'offer_credential', type: 'boolean', default: false }) offerCredential: boolean;
  /** Days after the original document verification that a reused credential (EU wallet scheme) still earns acr high. */
  @Column({ name: 'reused_identity_max_age_days', type: 'integer', default: REUSED_IDENTITY_MAX_AGE_DAYS.default }) reusedIdentityMaxAgeDays: number;
  /** RFC 8705 §2.1.2: the certificate subject of a tls_client_auth merchant (one of the five is set). */
  @Column({ name: 'tls_client_auth_subject_dn', type: 'text', nullable: true }) tlsClientAuthSubjectDn: string | null;
  @Column({ name: 'tls_client_auth_san_dns', type: 'text', nullable: true }) tlsClientAuthSanDns: string | null;
  @Column({ name: 'tls_client_auth_san_uri', type: 'text', nullable: true }) tlsClientAuthSanUri: string | null;
  @Column({ name: 'tls_client_auth_san_ip', type: 'text', nullable: true }) tlsClientAuthSanIp: string | null;
  @Column({ name: 'tls_client_auth_san_email', type: 'text', nullable: true }) tlsClientAuthSanEmail: string | null;
  /** RFC 8705 §3: tokens bound to the certificate presented at the token endpoint. */
  @Column({ name: 'tls_client_certificate_bound_access_tokens', type: 'boolean', default: false }) tlsClientCertificateBoundAccessTokens: boolean;
  @Column({ type: 'boolean', default: true }) enabled: boolean;
  @Column({ name: 'secret_rotated_at', type: 'timestamptz' }) secretRotatedAt: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
