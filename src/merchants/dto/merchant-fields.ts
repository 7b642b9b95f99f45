import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { OptionalNotNull } from './optional-not-null.js';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  CIBA_DELIVERY_MODES,
  ENCRYPTION_ALGS,
  ENCRYPTION_ENCS,
  ID_TOKEN_SIGNING_ALGS,
  REUSED_IDENTITY_MAX_AGE_DAYS,
  SECURITY_PROFILES,
  SUBJECT_TYPES,
  TOKEN_ENDPOINT_AUTH_METHODS,
} from '../merchant.entity.js';
import { UI_LOCALES, type UiLocale } from '../../i18n/locales.js';
import { SCOPE_VALUE } from '../scopes.js';
import { IsRedirectUri } from './is-redirect-uri.js';
import { SamlSettingsDto } from './saml-settings.dto.js';
import { MutualTlsFields } from './mutual-tls-fields.js';

export const REQUEST_OBJECT_ALGS = ['RS256', 'PS256', 'ES256'] as const;

export class JwksDto {
  @ApiPropertyOptional({
    description: 'JSON Web Keys (public members only), e.g. RSA `kty`, `n`, `e`, optional `kid`, `use`, `alg`',
    type: 'array',
    items: { type: 'object' },
  })
  @IsArray()
  @ArrayMaxSize(20)
  @IsObject({ each: true })
  keys: Record<string, unknown>[];
}

/**
 * The optional merchant settings, shared by create and update. Names follow RFC 7591 and its OIDC/CIBA
 * extensions where one exists; `eid_schemes`, `psd2`, `encryption_key_id` and `request_object_key_id` are ours.
 */
export class MerchantOptionalFields extends MutualTlsFields {
  @ApiPropertyOptional({ description: 'Space-separated scopes the merchant may request (spec 2.3). Omit for all scopes.', example: 'openid profile ssn' })
  @IsOptional()
  @IsString()
  @Matches(SCOPE_VALUE, { message: 'scope must be space-separated scope values' })
  @MaxLength(1000)
  scope?: string;

  @ApiPropertyOptional({
    description: 'eID scheme ids the merchant may use. Omit for every scheme enabled in this environment.',
    example: ['document-verifier'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Matches(/^[a-z0-9-]{1,40}$/, { each: true, message: 'each eid scheme id must be lower-case letters, digits or -' })
  eid_schemes?: string[];

  @ApiPropertyOptional({
    description:
      'At the end of a sign-in whose document verification passed, offer the person to keep the verified identity in their EU ' +
      'wallet (a credential offer with a QR code, then on to this merchant). Adds one page to the sign-in.',
    default: false,
    example: true,
  })
  @OptionalNotNull()
  @IsBoolean()
  offer_credential?: boolean;

  @ApiPropertyOptional({ description: 'PSD2 third-party provider: PKCE with S256 is mandatory (spec 4.2.4).', default: false })
  @OptionalNotNull()
  @IsBoolean()
  psd2?: boolean;

  @ApiPropertyOptional({
    enum: SECURITY_PROFILES,
    default: 'default',
    example: 'fapi2',
    description:
      'default: the rules of spec 4.2. fapi2: the FAPI 2.0 Security Profile (docs/oidc.md, FAPI 2.0): authorization requests only through ' +
      'PAR, PKCE S256, private_key_jwt (ES256 or PS256) and no client secret, DPoP-bound tokens, https redirect_uris only, codes of at ' +
      'most 60 s; a registration breaking a rule answers 400 naming the field.',
  })
  @OptionalNotNull()
  @IsIn(SECURITY_PROFILES)
  security_profile?: (typeof SECURITY_PROFILES)[number];

  @ApiPropertyOptional({
    description:
      'RFC 9449 §5.2: every token request (code, refresh, CIBA poll) must carry a DPoP proof, else invalid_dpop_proof; access tokens ' +
      'are then bound to the proof key and user-info takes them only as `DPoP` with a proof (never as Bearer). Not with push delivery.',
    default: false,
    example: true,
  })
  @OptionalNotNull()
  @IsBoolean()
  dpop_bound_access_tokens?: boolean;

  @ApiPropertyOptional({
    enum: SUBJECT_TYPES,
    default: 'public',
    example: 'pairwise',
    description:
      'OIDC subject type (spec 2.9): public, the same sub for a person at every merchant; pairwise, a sub of this merchant ' +
      'alone (its redirect_uris must then share one host, the sector).',
  })
  @OptionalNotNull()
  @IsIn(SUBJECT_TYPES)
  subject_type?: (typeof SUBJECT_TYPES)[number];

  @ApiPropertyOptional({ enum: TOKEN_ENDPOINT_AUTH_METHODS, default: 'client_secret_basic' })
  @OptionalNotNull()
  @IsIn(TOKEN_ENDPOINT_AUTH_METHODS)
  token_endpoint_auth_method?: (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

  @ApiPropertyOptional({ enum: ID_TOKEN_SIGNING_ALGS, default: 'RS256' })
  @OptionalNotNull()
  @IsIn(ID_TOKEN_SIGNING_ALGS)
  id_token_signed_response_alg?: (typeof ID_TOKEN_SIGNING_ALGS)[number];

  @ApiPropertyOptional({ enum: ENCRYPTION_ALGS, description: 'Set to encrypt ID tokens (sign then encrypt, spec 5.5). Needs jwks or jwks_uri.' })
  @IsOptional()
  @IsIn(ENCRYPTION_ALGS)
  id_token_encrypted_response_alg?: string;

  @ApiPropertyOptional({ enum: ENCRYPTION_ENCS, default: 'A256GCM' })
  @IsOptional()
  @IsIn(ENCRYPTION_ENCS)
  id_token_encrypted_response_enc?: string;

  @ApiPropertyOptional({ enum: ENCRYPTION_ALGS, description: 'Set to encrypt user-info responses (spec 5.6).' })
  @IsOptional()
  @IsIn(ENCRYPTION_ALGS)
  userinfo_encrypted_response_alg?: string;

  @ApiPropertyOptional({ enum: ENCRYPTION_ENCS, default: 'A256GCM' })
  @IsOptional()
  @IsIn(ENCRYPTION_ENCS)
  userinfo_encrypted_response_enc?: string;

  @ApiPropertyOptional({
    description: "URL of the merchant's JWKS (https; http://localhost also in customer-test).",
    example: 'https://merchant.example/jwks.json',
  })
  @IsOptional()
  @IsRedirectUri({ message: 'jwks_uri must be an absolute http(s) URL without fragment or credentials' })
  jwks_uri?: string;

  @ApiPropertyOptional({ description: "The merchant's public keys inline (RSA key members as JSON, spec 4.2.3).", type: JwksDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => JwksDto)
  jwks?: JwksDto;

  @ApiPropertyOptional({ description: 'kid of the encryption key in the set; without it the first key is used.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  encryption_key_id?: string;

  @ApiPropertyOptional({ description: 'kid of the request-object verification key; without it the first key is used.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  request_object_key_id?: string;

  @ApiPropertyOptional({ enum: REQUEST_OBJECT_ALGS })
  @IsOptional()
  @IsIn(REQUEST_OBJECT_ALGS)
  request_object_signing_alg?: string;

  @ApiPropertyOptional({
    description:
      'request_uri values the merchant will use (OIDC registration; only these are fetched). Each is matched exactly, or as a prefix ' +
      "when it ends with '/'. https only in production; http://localhost also in customer-test.",
    example: ['https://shop.example/requests/'],
  })
  // Not @IsOptional: null would pass it and break the NOT NULL column; [] clears the list.
  @ValidateIf((o: { request_uris?: unknown }) => o.request_uris !== undefined)
  @IsArray()
  @ArrayMaxSize(20)
  @IsRedirectUri({ each: true, message: 'each request_uri must be an absolute http(s) URL without fragment or credentials' })
  request_uris?: string[];

  @ApiPropertyOptional({
    description:
      'Where the global logout (/oidc/session/end, OIDC RP-initiated logout; SAML merchants too) may return the browser, ' +
      'compared exactly. https only in production; http://localhost also in customer-test.',
    example: ['https://shop.example/logged-out'],
  })
  // Not @IsOptional: null would pass it and break the NOT NULL column; [] clears the list.
  @ValidateIf((o: { post_logout_redirect_uris?: unknown }) => o.post_logout_redirect_uris !== undefined)
  @IsArray()
  @ArrayMaxSize(20)
  @IsRedirectUri({ each: true, message: 'each post_logout_redirect_uri must be an absolute http(s) URL without fragment or credentials' })
  post_logout_redirect_uris?: string[];

  @ApiPropertyOptional({ enum: CIBA_DELIVERY_MODES, default: 'poll' })
  @OptionalNotNull()
  @IsIn(CIBA_DELIVERY_MODES)
  backchannel_token_delivery_mode?: (typeof CIBA_DELIVERY_MODES)[number];

  @ApiPropertyOptional({
    description:
      'Callback for CIBA ping and push delivery (https; http://localhost also in customer-test). Never at a private, reserved, link-local or (in production) loopback address, nor a name leading there: 400 naming this field.',
  })
  @IsOptional()
  @IsRedirectUri({ message: 'backchannel_client_notification_endpoint must be an absolute http(s) URL without fragment or credentials' })
  backchannel_client_notification_endpoint?: string;

  @ApiPropertyOptional({
    description: 'CIBA: the merchant sends the user_code the user chose in the app (CIBA Core 4); requests without one are refused.',
    default: false,
    example: false,
  })
  @OptionalNotNull()
  @IsBoolean()
  backchannel_user_code_parameter?: boolean;

  @ApiPropertyOptional({
    enum: UI_LOCALES,
    example: 'nb_NO',
    description:
      "The broker pages' language when the request names none (ui_locale, ui_locales) and the browser's Accept-Language matches none " +
      'of the 12 locales. Omit (or null) for en_GB.',
    nullable: true,
  })
  @IsOptional()
  @IsIn(UI_LOCALES)
  default_ui_locale?: UiLocale | null;

  @ApiPropertyOptional({
    enum: REQUEST_OBJECT_ALGS,
    nullable: true,
    description:
      'CIBA Core 7.1.1: every backchannel request must then be a `request` JWT signed with this algorithm by the key of jwks / jwks_uri ' +
      '(request_object_key_id, else the first signing key), carrying iss, aud, exp, iat, nbf and jti. Without it a signed request is ' +
      'still accepted (with an algorithm of discovery), plain parameters too.',
  })
  @IsOptional()
  @IsIn(REQUEST_OBJECT_ALGS)
  backchannel_authentication_request_signing_alg?: string | null;

  @ApiPropertyOptional({
    description:
      "RFC 7591 logo_uri: the merchant's logo, shown beside its name on the broker pages. Fetched by us once, when set (sending it " +
      'again fetches it again), under the request_uri rules (no redirects, no private addresses; https, plain http only for localhost ' +
      'in customer-test), at most 256 KiB, PNG, JPEG or WebP (told by content; SVG is refused), 16 to 2048 pixels a side; then ' +
      'served from our origin. A logo that cannot be used answers 400 naming logo_uri. null removes the logo.',
    example: 'https://shop.example/logo.png',
    nullable: true,
  })
  @IsOptional()
  @MaxLength(2000)
  @IsRedirectUri({ message: 'logo_uri must be an absolute http(s) URL without fragment or credentials' })
  logo_uri?: string | null;

  @ApiPropertyOptional({
    description:
      "EU wallet scheme, the service's own reusable credential (the reusable identity a wallet keeps): how many days after the original document " +
      "verification (the credential's verified_at) a login with it still gets acr eIDAS high, when asked for and the verification " +
      'reached high. Older credentials still log in, without acr high.',
    minimum: REUSED_IDENTITY_MAX_AGE_DAYS.min,
    maximum: REUSED_IDENTITY_MAX_AGE_DAYS.max,
    default: REUSED_IDENTITY_MAX_AGE_DAYS.default,
    example: 30,
  })
  @OptionalNotNull()
  @IsInt()
  @Min(REUSED_IDENTITY_MAX_AGE_DAYS.min)
  @Max(REUSED_IDENTITY_MAX_AGE_DAYS.max)
  reused_identity_max_age_days?: number;

  @ApiPropertyOptional({
    description: 'The merchant as a SAML 1.1 relying party (replaced as a whole; null ends SAML for it).',
    type: SamlSettingsDto,
    nullable: true,
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => SamlSettingsDto)
  saml?: SamlSettingsDto | null;
}
