import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsObject, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../../../../merchants/dto/optional-not-null.js';
import { ID_TOKEN_ENCRYPTION_ALGS, ID_TOKEN_ENCRYPTION_ENCS } from '../../keys/upstream-client-keys.service.js';
import { ClaimMapperDto } from './claim-mapper.dto.js';

export const ENVIRONMENTS = ['customer-test', 'production'] as const;
export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt'] as const;
export const ASSERTION_ALGS = ['RS256', 'ES256'] as const;
export const SUBJECT_MODES = ['hashed', 'upstream'] as const;

/** The settings of an upstream scheme that have a default (all optional, at creation too). */
export class EidSchemeFields {
  @ApiPropertyOptional({
    description: 'Our client secret at the upstream. Write-only: sealed at rest, never returned.',
    example: 'upstream-issued-secret-value',
    writeOnly: true,
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  client_secret?: string;

  @ApiPropertyOptional({
    enum: AUTH_METHODS,
    default: 'client_secret_basic',
    description:
      'How we authenticate at the upstream token endpoint. client_secret_basic: the client_secret in HTTP Basic, id and secret form-encoded first (RFC 6749 2.3.1); an upstream that refuses a right secret (invalid_client) may not form-decode them (glewlwyd and others, with - _ . ~ or other special characters in the secret): choose client_secret_post, the secret in the form body. private_key_jwt: a client assertion signed with our key; register GET /its/eid/jwks as jwks_uri at the upstream (no client secret needed). The two secret methods need client_secret.',
    example: 'private_key_jwt',
  })
  @OptionalNotNull()
  @IsIn(AUTH_METHODS)
  token_endpoint_auth_method?: (typeof AUTH_METHODS)[number];

  @ApiPropertyOptional({
    enum: ASSERTION_ALGS,
    default: 'RS256',
    description: 'private_key_jwt: the algorithm of our client assertion (the key of that algorithm in /its/eid/jwks signs it).',
    example: 'RS256',
  })
  @OptionalNotNull()
  @IsIn(ASSERTION_ALGS)
  token_endpoint_auth_signing_alg?: (typeof ASSERTION_ALGS)[number];

  @ApiPropertyOptional({
    enum: [...ID_TOKEN_ENCRYPTION_ALGS, ''],
    description:
      'The upstream encrypts ID tokens to our key (the use "enc" key in GET /its/eid/jwks, registered there as jwks_uri) with this key management algorithm; a plain or otherwise encrypted ID token is then refused. Set together with id_token_encrypted_response_enc; "" turns encryption off.',
    example: 'RSA-OAEP-256',
  })
  @OptionalNotNull()
  @IsIn([...ID_TOKEN_ENCRYPTION_ALGS, ''])
  id_token_encrypted_response_alg?: (typeof ID_TOKEN_ENCRYPTION_ALGS)[number] | '';

  @ApiPropertyOptional({
    enum: [...ID_TOKEN_ENCRYPTION_ENCS, ''],
    description: 'Content encryption of the upstream ID tokens (with id_token_encrypted_response_alg).',
    example: 'A256GCM',
  })
  @OptionalNotNull()
  @IsIn([...ID_TOKEN_ENCRYPTION_ENCS, ''])
  id_token_encrypted_response_enc?: (typeof ID_TOKEN_ENCRYPTION_ENCS)[number] | '';

  @ApiPropertyOptional({ description: 'Scopes asked of the upstream; must include openid.', default: 'openid', example: 'openid profile nin' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  @Matches(/(^| )openid( |$)/, { message: 'scope must include openid' })
  scope?: string;

  @ApiPropertyOptional({
    description:
      'Upstream acr_values sent on each request (when the merchant asks for urn:svc:acrp:level:high, the upstream values mapped to eIDAS high are sent instead).',
    example: ['urn:bankid:substantial'],
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  acr_values?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: "Upstream acr → ours. The ID token's acr is ours only through this map; an unmapped value gives no acr. The scheme can reach what it maps to.",
    example: { 'urn:bankid:high': 'urn:svc:cert:eidas:high' },
  })
  @OptionalNotNull()
  @IsObject()
  acr_map?: Record<string, string>;

  @ApiPropertyOptional({ description: 'Pass the page language on as ui_locales.', default: true, example: true })
  @OptionalNotNull()
  @IsBoolean()
  pass_ui_locales?: boolean;

  @ApiPropertyOptional({ description: "Pass the merchant's login_hint on (never our eid:<id> hints).", default: false, example: false })
  @OptionalNotNull()
  @IsBoolean()
  pass_login_hint?: boolean;

  @ApiPropertyOptional({ description: 'Also read the user-info endpoint (ID token claims win).', default: false, example: true })
  @OptionalNotNull()
  @IsBoolean()
  userinfo?: boolean;

  @ApiPropertyOptional({ description: 'amr of the broker ID token for this scheme (default: the scheme id).', example: ['bankid', 'mfa'] })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @Matches(/^[A-Za-z0-9_.:-]{1,60}$/, { each: true })
  amr?: string[];

  @ApiPropertyOptional({ description: 'Upstream claim that identifies the person.', default: 'sub', example: 'sub' })
  @OptionalNotNull()
  @IsString()
  @Matches(/^[A-Za-z0-9_.:-]{1,100}$/)
  subject_claim?: string;

  @ApiPropertyOptional({
    enum: SUBJECT_MODES,
    default: 'hashed',
    description: 'hashed: HMAC of scheme, issuer and value (stable, reveals nothing); upstream: "<scheme>:<value>".',
    example: 'hashed',
  })
  @OptionalNotNull()
  @IsIn(SUBJECT_MODES)
  subject_mode?: (typeof SUBJECT_MODES)[number];

  @ApiPropertyOptional({ type: [ClaimMapperDto], description: 'Ordered claim mappers; only what they write reaches merchants (by scope).' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => ClaimMapperDto)
  claim_mappers?: ClaimMapperDto[];
}
