import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Actor, AdminAccess, type AdminActor } from '../../admin/admin-actor.js';
import { ErrorResponseDto } from '../../common/http/error-response.dto.js';
import { IssuerKeyDto } from './dto/issuer-key.dto.js';
import { IssuerKeysAdminService } from './issuer-keys-admin.service.js';
import { SECURITY_SCHEMES } from '../../common/http/security-schemes.js';

@ApiTags('credential issuer')
@ApiBearerAuth(SECURITY_SCHEMES.ADMIN)
@ApiUnauthorizedResponse({ type: ErrorResponseDto })
@ApiForbiddenResponse({ type: ErrorResponseDto })
@Controller('admin/v1/credential-issuer/keys')
export class IssuerKeysController {
  constructor(private readonly keys: IssuerKeysAdminService) {}

  @Get()
  @AdminAccess('read')
  @ApiOperation({ summary: "List the credential issuer's signer certificates (public facts only)" })
  @ApiOkResponse({ type: [IssuerKeyDto] })
  list(): Promise<IssuerKeyDto[]> {
    return this.keys.list();
  }

  @Post('rotate')
  @HttpCode(200)
  @AdminAccess('write')
  @ApiOperation({
    summary:
      'customer-test: a new signer certificate under the same test root signs from now on (every instance within VCI_ISSUER_KEY_RELOAD_SECONDS); production: 409, replace the files and restart',
  })
  @ApiOkResponse({ type: [IssuerKeyDto] })
  @ApiConflictResponse({ type: ErrorResponseDto })
  rotate(@Actor() actor: AdminActor): Promise<IssuerKeyDto[]> {
    return this.keys.rotate(actor);
  }
}
