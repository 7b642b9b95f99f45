import { ApiProperty } from '@nestjs/swagger';

export class SigningKeyDto {
  @ApiProperty({ example: 'rs256-5f0c…' }) kid: string;
  @ApiProperty({ enum: ['RS256', 'ES256'] }) alg: string;
  @ApiProperty({
    enum: ['active', 'retiring'],
    description: 'active: the newest key, signing from signs_from; retiring: stays in the JWKS until retire_at (and signs until the newer key starts)',
  })
  status: string;
  @ApiProperty({ nullable: true, type: String }) retire_at: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'when a rotated key starts signing (it is published from the rotation on); null: from creation' })
  signs_from: string | null;
  @ApiProperty() created_at: string;
}
