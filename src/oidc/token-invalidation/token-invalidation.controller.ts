import { Body, Controller, Delete, Headers, HttpCode, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ErrorResponseDto } from '../../common/http/error-response.dto.js';
import { SECURITY_SCHEMES } from '../../common/http/security-schemes.js';
import { TokenInvalidationService } from './token-invalidation.service.js';

@ApiTags('oidc')
@ApiBasicAuth(SECURITY_SCHEMES.MERCHANT_BASIC)
@Controller('oidc/token')
export class TokenInvalidationController {
  constructor(private readonly tokens: TokenInvalidationService) {}

  @Delete()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Invalidate an access token (spec 4.5)',
    description: 'HTTP Basic with the merchant credentials; the access token as `token` in the query or a form body.',
  })
  @ApiQuery({ name: 'token', required: false, description: 'the access token to invalidate', example: 'Zm9vYmFyYmF6cXV4LWFjY2Vzcy10b2tlbi1leGFtcGxl' })
  @ApiOkResponse({ description: 'invalidated; empty body' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'no token given' })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'merchant authentication failed' })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'token unknown, expired, already invalidated or not this merchant’s' })
  async invalidate(
    @Headers('authorization') authorization: string | undefined,
    @Query('token') queryToken: unknown,
    @Body() body: Record<string, unknown> | undefined,
  ): Promise<void> {
    await this.tokens.invalidate(authorization, queryToken ?? body?.token);
  }
}
