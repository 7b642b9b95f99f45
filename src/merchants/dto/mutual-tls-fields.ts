import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIP, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { MessageSigningFields } from './message-signing-fields.js';
import { OptionalNotNull } from './optional-not-null.js';

/**
 * RFC 8705 settings of a merchant: which certificate authenticates it (§2.1.2, with token_endpoint_auth_method
 * tls_client_auth; at most one of these members) and whether its tokens are bound to that certificate (§3).
 */
export class MutualTlsFields extends MessageSigningFields {
  @ApiPropertyOptional({
    description:
      'RFC 8705 §2.1.2, with tls_client_auth: the expected subject DN of the certificate, as an RFC 4514 string (most specific first), ' +
      "issued by one of the operator's CAs (CLIENT_CERT_CA_FILE). null clears it.",
    example: 'CN=rp.bank.example,O=Example Bank,C=NO',
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  tls_client_auth_subject_dn?: string | null;

  @ApiPropertyOptional({
    description: 'RFC 8705 §2.1.2: a dNSName SAN the certificate must carry (instead of the subject DN).',
    example: 'rp.bank.example',
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9.*-]{1,253}$/, { message: 'tls_client_auth_san_dns must be a DNS name' })
  tls_client_auth_san_dns?: string | null;

  @ApiPropertyOptional({
    description: 'RFC 8705 §2.1.2: a uniformResourceIdentifier SAN the certificate must carry.',
    example: 'https://bank.example/rp',
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  tls_client_auth_san_uri?: string | null;

  @ApiPropertyOptional({ description: 'RFC 8705 §2.1.2: an iPAddress SAN the certificate must carry.', example: '192.0.2.10', nullable: true })
  @IsOptional()
  @IsIP()
  tls_client_auth_san_ip?: string | null;

  @ApiPropertyOptional({ description: 'RFC 8705 §2.1.2: an rfc822Name SAN the certificate must carry.', example: 'rp@bank.example', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  tls_client_auth_san_email?: string | null;

  @ApiPropertyOptional({
    description:
      'RFC 8705 §3: access and refresh tokens bound to the TLS client certificate the merchant presented at the token endpoint ' +
      '(through the TLS-terminating proxy); the token is then refused (invalid_token) without that certificate.',
    default: false,
    example: true,
  })
  @OptionalNotNull()
  @IsBoolean()
  tls_client_certificate_bound_access_tokens?: boolean;
}
