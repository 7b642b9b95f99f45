import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/http/error-response.dto.js';
import { Actor, AdminAccess, type AdminActor } from './admin-actor.js';
import { AdminService } from './admin.service.js';
import { AdminTokenDto, IssueAdminTokenDto, IssuedAdminTokenDto } from './dto/admin-token.dto.js';
import { AuditPageDto, AuditQueryDto } from './dto/audit-record.dto.js';
import { SECURITY_SCHEMES } from '../common/http/security-schemes.js';

@ApiTags('admin')
@ApiBearerAuth(SECURITY_SCHEMES.ADMIN)
@ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'no or invalid admin token' })
@ApiForbiddenResponse({ type: ErrorResponseDto, description: 'the support role is read-only' })
@Controller('admin/v1')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Post('tokens')
  @AdminAccess('write')
  @ApiOperation({ summary: 'Issue an admin or support token (shown once)' })
  issueToken(@Body() dto: IssueAdminTokenDto, @Actor() actor: AdminActor): Promise<IssuedAdminTokenDto> {
    return this.admin.issueToken(dto, actor);
  }

  @Get('tokens')
  @AdminAccess('write')
  @ApiOperation({ summary: 'List admin tokens (never the tokens themselves)' })
  listTokens(): Promise<AdminTokenDto[]> {
    return this.admin.listTokens();
  }

  @Delete('tokens/:id')
  @HttpCode(204)
  @AdminAccess('write')
  @ApiOperation({ summary: 'Revoke an admin token' })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  revokeToken(@Param('id', new ParseUUIDPipe()) id: string, @Actor() actor: AdminActor): Promise<void> {
    return this.admin.revokeToken(id, actor);
  }

  @Get('audit')
  @AdminAccess('read')
  @ApiOperation({ summary: 'Audit trail of admin changes, newest first' })
  audit(@Query() query: AuditQueryDto): Promise<AuditPageDto> {
    return this.admin.audit(query);
  }
}
