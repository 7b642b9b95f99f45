import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalNotNull } from '../../../../merchants/dto/optional-not-null.js';
import { IsIn, IsObject, IsString, Matches, MaxLength } from 'class-validator';
import { ENVIRONMENTS, EidSchemeFields } from './eid-scheme-fields.js';

export class CreateEidSchemeDto extends EidSchemeFields {
  @ApiProperty({ description: 'Scheme id, as merchants list it in eid_schemes and login_hint=eid:<id> picks it.', example: 'bankid-no' })
  @IsString()
  @Matches(/^[a-z0-9-]{1,40}$/, { message: 'id must be 1 to 40 lower-case letters, digits or -' })
  id: string;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { en_GB: 'BankID', nb_NO: 'BankID' } })
  @IsObject()
  labels: Record<string, string>;

  @ApiProperty({ enum: ENVIRONMENTS, example: 'customer-test' })
  @IsIn(ENVIRONMENTS)
  environment: (typeof ENVIRONMENTS)[number];

  @ApiProperty({ example: 'https://auth.bankid.example/oidc' })
  @IsString()
  @MaxLength(500)
  @Matches(/^https?:\/\/[^\s#?]+$/, { message: 'issuer must be an http(s) URL without query or fragment' })
  issuer: string;

  @ApiProperty({ example: 'broker-prod-01' })
  @IsString()
  @MaxLength(200)
  client_id: string;
}

/** A partial update: fields left out keep their value; none may be null. */
export class UpdateEidSchemeDto extends EidSchemeFields {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Name on the broker page per ui_locale (spec 2.9); en_GB, then any, is the fallback.',
    example: { en_GB: 'BankID', nb_NO: 'BankID', sv_SE: 'BankID' },
  })
  @OptionalNotNull()
  @IsObject()
  labels?: Record<string, string>;

  @ApiPropertyOptional({
    enum: ENVIRONMENTS,
    description: "The upstream's environment; a customer-test scheme never runs in production.",
    example: 'customer-test',
  })
  @OptionalNotNull()
  @IsIn(ENVIRONMENTS)
  environment?: (typeof ENVIRONMENTS)[number];

  @ApiPropertyOptional({
    description: 'Upstream issuer; discovery is read from its /.well-known/openid-configuration. https (http too in customer-test).',
    example: 'https://auth.bankid.example/oidc',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  @Matches(/^https?:\/\/[^\s#?]+$/, { message: 'issuer must be an http(s) URL without query or fragment' })
  issuer?: string;

  @ApiPropertyOptional({ description: 'Our client_id at the upstream.', example: 'broker-prod-01' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  client_id?: string;
}
