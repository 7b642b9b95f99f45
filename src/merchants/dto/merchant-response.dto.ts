import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageMetaDto } from '../../common/http/pagination.dto.js';
import { SamlSettingsResponseDto } from './saml-settings.dto.js';

export class MerchantDto {
  @ApiProperty({ description: 'The merchant identifier (OAuth client_id).', example: 'm_3q2X9yTzK1cV8wB4' }) client_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: [String] }) redirect_uris: string[];
  @ApiProperty({ nullable: true, type: String, description: 'null: every scope' }) scope: string | null;
  @ApiProperty({ nullable: true, type: [String], description: 'null: every scheme enabled in this environment' }) eid_schemes: string[] | null;
  @ApiProperty() psd2: boolean;
  @ApiProperty({ enum: ['default', 'fapi2'], example: 'default', description: 'fapi2: the FAPI 2.0 Security Profile is enforced' }) security_profile: string;
  @ApiProperty({ description: 'RFC 9449 §5.2: token requests need a DPoP proof; access tokens are DPoP-bound', example: false })
  dpop_bound_access_tokens: boolean;
  @ApiProperty({ description: 'RFC 9101 §10.5: every authorization request must be a signed request object', example: false })
  require_signed_request_object: boolean;
  @ApiPropertyOptional({ nullable: true, type: [String], description: 'FAPI 2.0 Message Signing §5.3.3; null: every mode offered', example: ['jwt'] })
  response_modes: string[] | null;
  @ApiProperty({ description: 'a credential offer at the end of sign-ins with a passed document verification', example: false }) offer_credential: boolean;
  @ApiProperty({ enum: ['public', 'pairwise'], example: 'public' }) subject_type: string;
  @ApiProperty() token_endpoint_auth_method: string;
  @ApiProperty() id_token_signed_response_alg: string;
  @ApiPropertyOptional({ nullable: true, type: String }) id_token_encrypted_response_alg: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) id_token_encrypted_response_enc: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) userinfo_encrypted_response_alg: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) userinfo_encrypted_response_enc: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) jwks_uri: string | null;
  @ApiPropertyOptional({ nullable: true, type: 'object', additionalProperties: true }) jwks: { keys: unknown[] } | null;
  @ApiPropertyOptional({ nullable: true, type: String }) encryption_key_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) request_object_key_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) request_object_signing_alg: string | null;
  @ApiProperty({ type: [String], description: 'registered request_uri values (exact, or a prefix when ending in /)' }) request_uris: string[];
  @ApiProperty({ type: [String], description: 'where the global logout may return the browser (exact match)' }) post_logout_redirect_uris: string[];
  @ApiProperty() backchannel_token_delivery_mode: string;
  @ApiPropertyOptional({ nullable: true, type: String }) backchannel_client_notification_endpoint: string | null;
  @ApiProperty({ example: false }) backchannel_user_code_parameter: boolean;
  @ApiPropertyOptional({ nullable: true, type: String, description: "the broker pages' fallback language; null: en_GB", example: 'nb_NO' }) default_ui_locale:
    string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'the registered logo (fetched once; served by us)',
    example: 'https://shop.example/logo.png',
  })
  logo_uri: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'ES256' }) backchannel_authentication_request_signing_alg: string | null;
  @ApiPropertyOptional({ nullable: true, type: SamlSettingsResponseDto, description: 'null: not a SAML relying party' }) saml: SamlSettingsResponseDto | null;
  @ApiProperty({ example: 30, description: "days after the document verification that the service's own credential still earns acr high" })
  reused_identity_max_age_days: number;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'RFC 8705 §2.1.2 (tls_client_auth)', example: 'CN=rp.bank.example,O=Example Bank,C=NO' })
  tls_client_auth_subject_dn: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'rp.bank.example' }) tls_client_auth_san_dns: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'https://bank.example/rp' }) tls_client_auth_san_uri: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: '192.0.2.10' }) tls_client_auth_san_ip: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'rp@bank.example' }) tls_client_auth_san_email: string | null;
  @ApiProperty({ example: false, description: 'RFC 8705 §3: tokens bound to the TLS client certificate' }) tls_client_certificate_bound_access_tokens: boolean;
  @ApiProperty() enabled: boolean;
  @ApiProperty() secret_rotated_at: string;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export class MerchantWithSecretDto extends MerchantDto {
  @ApiProperty({ description: 'The merchant secret. Shown this once; store it safely.' }) client_secret: string;
}

export class MerchantSecretDto {
  @ApiProperty() client_id: string;
  @ApiProperty({ description: 'The new merchant secret. Shown this once; the old one stops working at once.' }) client_secret: string;
}

export class MerchantPageDto extends PageMetaDto {
  @ApiProperty({ type: [MerchantDto] }) items: MerchantDto[];
}
