import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Actor, AdminAccess, type AdminActor } from '../../admin/admin-actor.js';
import { AuditService } from '../../admin/audit.service.js';
import { NotFoundError } from '../../common/errors/app-error.js';
import { ErrorResponseDto } from '../../common/http/error-response.dto.js';
import { type AppBinding, AppBindingsService } from '../bindings/app-bindings.service.js';
import { AppBindingDto, SetAppStatusDto } from './ciba-apps-admin.dto.js';
import { SECURITY_SCHEMES } from '../../common/http/security-schemes.js';

/**
 * Operators' view of the apps a merchant provisioned for CIBA (spec 3 userStatus): read by admin and support,
 * suspended or reactivated by admins only, each change audited (the binding's id, never the person).
 */
@ApiTags('CIBA apps')
@ApiBearerAuth(SECURITY_SCHEMES.ADMIN)
@ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'no or invalid admin token' })
@ApiForbiddenResponse({ type: ErrorResponseDto, description: 'the support role is read-only' })
@ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no app with this id is provisioned at this merchant' })
@Controller('admin/v1/merchants/:clientId/ciba-apps')
export class CibaAppsAdminController {
  constructor(
    private readonly bindings: AppBindingsService,
    private readonly audit: AuditService,
    private readonly dataSource: DataSource,
  ) {}

  @Get(':appId')
  @AdminAccess('read')
  @ApiOperation({ summary: 'A provisioned app of this merchant and its status' })
  @ApiOkResponse({ type: AppBindingDto })
  async get(@Param('clientId') clientId: string, @Param('appId') appId: string): Promise<AppBindingDto> {
    const binding = await this.bindings.find(clientId, appId);
    if (!binding) throw notBound(clientId);
    return toDto(binding);
  }

  @Put(':appId/status')
  @AdminAccess('write')
  @ApiOperation({ summary: 'Suspend (new requests answer unknown_user_id, open ones cannot be answered) or reactivate a provisioned app' })
  @ApiOkResponse({ type: AppBindingDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  async setStatus(
    @Param('clientId') clientId: string,
    @Param('appId') appId: string,
    @Body() dto: SetAppStatusDto,
    @Actor() actor: AdminActor,
  ): Promise<AppBindingDto> {
    return this.dataSource.transaction(async (tx) => {
      const changed = await this.bindings.setStatus(clientId, appId, dto.status, tx);
      if (!changed) throw notBound(clientId);
      const { binding, previous } = changed;
      if (previous !== dto.status)
        await this.audit.record(
          actor,
          dto.status === 'suspended' ? 'ciba_app.suspend' : 'ciba_app.reactivate',
          'ciba_app_binding',
          binding.id,
          { client_id: clientId, status: dto.status },
          tx,
        );
      return toDto(binding);
    });
  }
}

const notBound = (clientId: string) => new NotFoundError(`CIBA app at merchant ${clientId}`);

function toDto(b: AppBinding): AppBindingDto {
  return { id: b.id, client_id: b.clientId, app_id: b.appId, status: b.status, bound_at: b.createdAt.toISOString(), updated_at: b.updatedAt.toISOString() };
}
