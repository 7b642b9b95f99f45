import { ApiProperty } from '@nestjs/swagger';

export class SigningKeyDto {
  @ApiProperty({ example: 'rs256-5f0c…' }) kid: string;
  @ApiProperty({ enum: ['RS256', 'ES256'] }) alg: string;
  @ApiProperty({ enum: ['active', 'retiring'], description: 'active keys sign; retiring keys stay in the JWKS until retire_at' }) status: string;
  @ApiProperty({ nullable: true, type: String }) retire_at: string | null;
  @ApiProperty() created_at: string;
}
