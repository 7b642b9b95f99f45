import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { SCOPE_VALUE } from '../scopes.js';
import { IsRedirectUri } from './is-redirect-uri.js';

/** An absolute URI (a URL or a URN), as SAML entity IDs are; no spaces or control characters. */
const ENTITY_ID = /^[A-Za-z][A-Za-z0-9+.-]*:[\x21-\x7e]+$/;
const PEM_CERTIFICATE = /^\s*-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+-----END CERTIFICATE-----\s*$/;

/**
 * The merchant as a SAML 1.1 relying party. Sent as a whole: a PATCH with `saml` replaces every member
 * (members left out take their defaults), and `saml: null` ends SAML for the merchant.
 */
export class SamlSettingsDto {
  @ApiProperty({
    description: "The merchant's SAML entity ID: the audience of its assertions (an absolute URI, unique among merchants).",
    example: 'https://shop.example/shibboleth',
  })
  @IsString()
  @MaxLength(1024)
  @Matches(ENTITY_ID, { message: 'entity_id must be an absolute URI (a URL or a URN)' })
  entity_id: string;

  @ApiPropertyOptional({
    description: 'Assertion consumer URL for Browser/POST, compared exactly (https; http://localhost also in customer-test).',
    example: 'https://shop.example/Shibboleth.sso/SAML/POST',
  })
  @IsOptional()
  @IsRedirectUri({ message: 'saml.assertion_consumer_url must be an absolute http(s) URL without fragment or credentials' })
  assertion_consumer_url?: string | null;

  @ApiPropertyOptional({
    description: 'Artifact receiver URL for Browser/Artifact, compared exactly.',
    example: 'https://shop.example/Shibboleth.sso/SAML/Artifact',
  })
  @IsOptional()
  @IsRedirectUri({ message: 'saml.artifact_receiver_url must be an absolute http(s) URL without fragment or credentials' })
  artifact_receiver_url?: string | null;

  @ApiPropertyOptional({
    description: 'X.509 certificate (PEM) the merchant presents for TLS client authentication when it resolves artifacts.',
    example: '-----BEGIN CERTIFICATE-----\nMIIC…\n-----END CERTIFICATE-----',
  })
  @IsOptional()
  @IsString()
  @MaxLength(8000)
  @Matches(PEM_CERTIFICATE, { message: 'certificate must be one PEM certificate' })
  certificate?: string | null;

  @ApiPropertyOptional({
    description: "Scopes whose attributes the assertions carry (spec 2.1, 2.3); must include openid and lie within the merchant's scope.",
    default: 'openid',
    example: 'openid profile',
  })
  @IsOptional()
  @IsString()
  @Matches(SCOPE_VALUE, { message: 'scope must be space-separated scope values' })
  @MaxLength(1000)
  scope?: string;
}

/** The stored settings as the API answers them (every member present). */
export class SamlSettingsResponseDto {
  @ApiProperty({ example: 'https://shop.example/shibboleth' }) entity_id: string;
  @ApiProperty({ nullable: true, type: String, example: 'https://shop.example/Shibboleth.sso/SAML/POST' }) assertion_consumer_url: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'https://shop.example/Shibboleth.sso/SAML/Artifact' }) artifact_receiver_url: string | null;
  @ApiProperty({ nullable: true, type: String, example: null }) certificate: string | null;
  @ApiProperty({ example: 'openid profile' }) scope: string;
}
