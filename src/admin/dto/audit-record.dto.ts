import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageMetaDto, PageQueryDto } from '../../common/http/pagination.dto.js';

export class AuditQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'merchant' }) @IsOptional() @IsString() @MaxLength(100) target_type?: string;
  @ApiPropertyOptional({ description: 'e.g. a merchant client_id' }) @IsOptional() @IsString() @MaxLength(200) target_id?: string;
}

export class AuditRecordDto {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'token label and id' }) actor: string;
  @ApiProperty() actor_role: string;
  @ApiProperty({ example: 'merchant.update' }) action: string;
  @ApiProperty() target_type: string;
  @ApiProperty() target_id: string;
  @ApiProperty({ description: 'changed fields (secrets are never recorded)', type: 'object', additionalProperties: true }) changes: Record<string, unknown>;
  @ApiProperty() at: string;
}

export class AuditPageDto extends PageMetaDto {
  @ApiProperty({ type: [AuditRecordDto] }) items: AuditRecordDto[];
}
