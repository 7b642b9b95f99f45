import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Actor, AdminAccess, type AdminActor } from '../../admin/admin-actor.js';
import { ErrorResponseDto } from '../../common/http/error-response.dto.js';
import { SigningKeyDto } from './dto/signing-key.dto.js';
import { SigningKeysAdminService } from './signing-keys-admin.service.js';
import { SECURITY_SCHEMES } from '../../common/http/security-schemes.js';

@ApiTags('signing keys')
@ApiBearerAuth(SECURITY_SCHEMES.ADMIN)
@ApiUnauthorizedResponse({ type: ErrorResponseDto })
@ApiForbiddenResponse({ type: ErrorResponseDto })
@Controller('admin/v1/signing-keys')
export class SigningKeysController {
  constructor(private readonly keys: SigningKeysAdminService) {}

  @Get()
  @AdminAccess('read')
  @ApiOperation({ summary: 'List the ID token signing keys (public facts only)' })
  @ApiOkResponse({ type: [SigningKeyDto] })
  list(): Promise<SigningKeyDto[]> {
    return this.keys.list();
  }

  @Post('rotate')
  @HttpCode(200)
  @AdminAccess('write')
  @ApiOperation({
    summary:
      'Rotate: new RS256 and ES256 keys are published at once and sign after two key reload intervals (signs_from); the old ones sign until then and stay published for the overlap period after',
  })
  @ApiOkResponse({ type: [SigningKeyDto] })
  rotate(@Actor() actor: AdminActor): Promise<SigningKeyDto[]> {
    return this.keys.rotate(actor);
  }
}
