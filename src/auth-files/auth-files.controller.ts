import { Body, Controller, Headers, HttpCode, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { SECURITY_SCHEMES } from '../common/http/security-schemes.js';
import { AuthFilesService } from './auth-files.service.js';
import { AuthFileResponseDto, AuthFilesErrorDto, FetchAuthFileDto } from './dto/fetch-auth-file.dto.js';

@ApiTags('auth-files')
@ApiBasicAuth(SECURITY_SCHEMES.MERCHANT_BASIC)
@Controller('auth_files')
export class AuthFilesController {
  constructor(private readonly authFiles: AuthFilesService) {}

  @Post('fetch.html')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Evidence of a document verification as PDF or PNG (spec 4.8)',
    description:
      'HTTP Basic with the merchant credentials; `tid` from the ID token claim `auth_files_url`. Only the merchant whose transaction produced the record gets it, within the retention period (spec 1.9).',
  })
  @ApiQuery({ name: 'tid', required: true, description: 'the transaction id of auth_files_url', example: '0b7d6c2e-5a1f-4c7e-9a55-3f1d2b8e4a10' })
  // Described, not validated, by the DTO here: the service validates it so refusals keep the auth-files error shape.
  @ApiBody({ type: FetchAuthFileDto })
  @ApiOkResponse({
    type: AuthFileResponseDto,
    description:
      'JSON; with `Accept: application/jwt` the same object as a JWT signed with the provider keys (/oidc/jwks), iss the OIDC issuer, aud the merchant, valid 15 minutes',
  })
  @ApiProduces('application/json', 'application/jwt')
  @ApiBadRequestResponse({
    type: AuthFilesErrorDto,
    description: 'invalid request; or unknown tid, another merchant’s or past retention (one answer for all three)',
  })
  @ApiUnauthorizedResponse({ type: AuthFilesErrorDto, description: 'merchant authentication failed' })
  async fetch(
    @Headers('authorization') authorization: string | undefined,
    @Query('tid') tid: unknown,
    @Body() body: unknown,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AuthFileResponseDto | string> {
    // Personal data: no shared or private cache may keep it (nothing of the file is kept on our side either).
    res.setHeader('Cache-Control', 'no-store');
    const answer = await this.authFiles.fetch(authorization, tid, body, accept);
    if (typeof answer === 'string') res.type('application/jwt');
    return answer;
  }
}
