import { ApiProperty } from '@nestjs/swagger';

export class IssuerKeyDto {
  @ApiProperty({ description: "the signer certificate's SHA-256 thumbprint (base64url)", example: 'kq3vX0R8…' }) kid: string;
  @ApiProperty({ enum: ['active', 'retiring'], description: 'active: signs credentials and status lists; retiring: replaced, deleted at retire_at' }) status: string;
  @ApiProperty({ example: 'C=UT, O=Customer-test, CN=Customer-test Credential Issuer' }) subject: string;
  @ApiProperty({ description: "the certificate's notAfter" }) not_after: string;
  @ApiProperty({ nullable: true, type: String }) signs_from: string | null;
  @ApiProperty({ nullable: true, type: String }) retire_at: string | null;
  @ApiProperty({ nullable: true, type: String }) created_at: string | null;
  @ApiProperty({ enum: ['database', 'file'], description: 'database: customer-test\'s generated signers; file: production\'s VCI_ISSUER_KEY_FILE' }) source: string;
}
