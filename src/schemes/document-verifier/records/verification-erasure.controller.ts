import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiProperty,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { Actor, AdminAccess, type AdminActor } from '../../../admin/admin-actor.js';
import { AuditService } from '../../../admin/audit.service.js';
import { NotFoundError } from '../../../common/errors/app-error.js';
import { ErrorResponseDto } from '../../../common/http/error-response.dto.js';
import { VerificationRecordsService } from './verification-records.service.js';
import { SECURITY_SCHEMES } from '../../../common/http/security-schemes.js';

export class VerificationParamsDto {
  @ApiProperty({
    description: 'the verification record (the evidence_ref of the sign-in, the id of its auth files)',
    format: 'uuid',
    example: '6f1c2a9e-2b1f-4b44-9d58-0c6f1c0f7a11',
  })
  @IsUUID()
  recordId: string;
}

/**
 * Erasure ahead of retention (GDPR Art. 17: the person asks, the operator acts): the sealed record, its photos and its
 * claims are deleted at once; auth files for it answer "not found" from then on. Credentials issued from it (reusable
 * identity) are revoked by the issuer's next purge, which treats a record gone before its scheduled deletion as erased.
 */
@ApiTags('verifications')
@ApiBearerAuth(SECURITY_SCHEMES.ADMIN)
@ApiUnauthorizedResponse({ type: ErrorResponseDto })
@ApiForbiddenResponse({ type: ErrorResponseDto })
@Controller('admin/v1/verifications')
export class VerificationErasureController {
  constructor(
    private readonly records: VerificationRecordsService,
    private readonly audit: AuditService,
  ) {}

  @Delete(':recordId')
  @HttpCode(204)
  @AdminAccess('write')
  @ApiOperation({ summary: "Erase one verification's evidence before its retention ends; credentials issued from it are revoked" })
  @ApiNoContentResponse({ description: 'erased' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such record (never made, or already past retention)' })
  async erase(@Param() params: VerificationParamsDto, @Actor() actor: AdminActor): Promise<void> {
    if (!(await this.records.erase(params.recordId))) throw new NotFoundError('verification record');
    await this.audit.record(actor, 'verification.erase', 'verification_record', params.recordId, {});
  }
}
