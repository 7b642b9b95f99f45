import { ApiProperty } from '@nestjs/swagger';

export class IssuerKeyDto {
  @ApiProperty({ description: "the signer certificate's SHA-256 thumbprint (base64url)", example: 'kq3vX0R8…' }) kid: string;
  @ApiProperty({
    enum: ['active', 'retiring'],
    description: 'active: signs credentials and status lists; retiring: replaced, deleted at retire_at',
    example: 'active',
  })
  status: string;
  @ApiProperty({ example: 'C=UT, O=Customer-test, CN=Customer-test Credential Issuer' }) subject: string;
  @ApiProperty({ description: "the certificate's notAfter", example: '2028-12-01T06:00:00.000Z' }) not_after: string;
  @ApiProperty({ nullable: true, type: String, example: '2026-11-26T06:00:00.000Z' }) signs_from: string | null;
  @ApiProperty({ nullable: true, type: String, example: null }) retire_at: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'null for the file signer', example: '2026-11-26T06:00:00.000Z' }) created_at: string | null;
  @ApiProperty({
    enum: ['database', 'file'],
    description: "database: customer-test's generated signers; file: production's VCI_ISSUER_KEY_FILE",
    example: 'database',
  })
  source: string;
}
