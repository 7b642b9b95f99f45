import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Actor, AdminAccess, type AdminActor } from '../../admin/admin-actor.js';
import { AuditService } from '../../admin/audit.service.js';
import { NotFoundError } from '../../common/errors/app-error.js';
import { ErrorResponseDto } from '../../common/http/error-response.dto.js';
import { CredentialStatusService } from '../status/credential-status.service.js';
import { IssuanceParamsDto, RevocationResultDto, RevokeCredentialsDto, VerificationRecordParamsDto } from './dto/revoke-credentials.dto.js';
import { SECURITY_SCHEMES } from '../../common/http/security-schemes.js';

/**
 * The operator's revocations: every credential of one issuance, or of every issuance from one verification record.
 * Audited (who, what, the reason code and the counts). Effective in the served status lists at once on this instance,
 * within VCI_STATUS_LIST_REFRESH_SECONDS on the others, and for relying parties after their cache's ttl.
 */
@ApiTags('credential issuer')
@ApiBearerAuth(SECURITY_SCHEMES.ADMIN)
@ApiUnauthorizedResponse({ type: ErrorResponseDto })
@ApiForbiddenResponse({ type: ErrorResponseDto })
@ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no credential is known for it (never issued, or expired and purged)' })
@Controller('admin/v1/credential-issuer')
export class CredentialRevocationAdminController {
  constructor(
    private readonly status: CredentialStatusService,
    private readonly audit: AuditService,
  ) {}

  @Post('issuances/:issuanceId/revoke')
  @HttpCode(200)
  @AdminAccess('write')
  @ApiOperation({ summary: 'Revoke every credential of one issuance' })
  @ApiOkResponse({ type: RevocationResultDto })
  async revokeIssuance(@Param() params: IssuanceParamsDto, @Body() body: RevokeCredentialsDto, @Actor() actor: AdminActor): Promise<RevocationResultDto> {
    const result = await this.status.revokeIssuance(params.issuanceId);
    if (!result.total) throw new NotFoundError('issuance');
    await this.audit.record(actor, 'credential_issuer.revoke_issuance', 'credential_issuance', params.issuanceId, { reason: body.reason ?? null, ...result });
    return result;
  }

  @Post('revoke-by-verification/:recordId')
  @HttpCode(200)
  @AdminAccess('write')
  @ApiOperation({ summary: 'Revoke every credential issued from one verification record' })
  @ApiOkResponse({ type: RevocationResultDto })
  async revokeByVerification(
    @Param() params: VerificationRecordParamsDto,
    @Body() body: RevokeCredentialsDto,
    @Actor() actor: AdminActor,
  ): Promise<RevocationResultDto> {
    const result = await this.status.revokeByRecord(params.recordId);
    if (!result.total) throw new NotFoundError('credentials of the verification record');
    await this.audit.record(actor, 'credential_issuer.revoke_by_verification', 'verification_record', params.recordId, {
      reason: body.reason ?? null,
      ...result,
    });
    return result;
  }
}
