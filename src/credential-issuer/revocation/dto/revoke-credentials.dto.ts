import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID, Matches } from 'class-validator';

export const REVOCATION_REASONS = ['holder_request', 'key_compromise', 'issued_in_error', 'verification_withdrawn', 'other'] as const;

/** Why the operator revokes: a code, never free text (the audit trail keeps no personal data). */
export class RevokeCredentialsDto {
  @ApiPropertyOptional({ enum: REVOCATION_REASONS, example: 'holder_request' })
  @IsOptional()
  @IsIn(REVOCATION_REASONS)
  reason?: (typeof REVOCATION_REASONS)[number];
}

export class IssuanceParamsDto {
  @ApiProperty({ description: 'the issuance (one offer redeemed: a batch of credentials)', example: '0b8e3c1d-5f7a-4f0e-9a61-2d8c7b1e4a90' })
  @Matches(/^[A-Za-z0-9_-]{1,100}$/, { message: 'issuanceId must be 1-100 letters, digits, - or _' })
  issuanceId: string;
}

export class VerificationRecordParamsDto {
  @ApiProperty({ description: 'the verification record the credentials were issued from', format: 'uuid', example: '6f1c2a9e-2b1f-4b44-9d58-0c6f1c0f7a11' })
  @IsUUID()
  recordId: string;
}

export class RevocationResultDto {
  @ApiProperty({ description: 'credentials revoked by this call', example: 10 }) revoked: number;
  @ApiProperty({ description: 'credentials of the issuance (or record) still tracked: revoked before, now, or expired', example: 10 }) total: number;
}
