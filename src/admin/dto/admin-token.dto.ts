import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { ADMIN_ROLES, type AdminRole } from '../admin-token.entity.js';

export class IssueAdminTokenDto {
  @ApiProperty({ enum: ADMIN_ROLES, description: '`admin` may do everything; `support` may only read.' })
  @IsIn(ADMIN_ROLES)
  role: AdminRole;

  @ApiProperty({ example: 'support desk, Oslo' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  label: string;
}

export class AdminTokenDto {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ADMIN_ROLES }) role: AdminRole;
  @ApiProperty() label: string;
  @ApiProperty() created_at: string;
  @ApiProperty({ nullable: true, type: String }) revoked_at: string | null;
}

export class IssuedAdminTokenDto {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ADMIN_ROLES }) role: AdminRole;
  @ApiProperty() label: string;
  @ApiProperty({ description: 'The bearer token. Shown this once; only its hash is stored.' }) token: string;
}
