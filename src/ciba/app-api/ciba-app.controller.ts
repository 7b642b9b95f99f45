import { Body, Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ErrorResponseDto } from '../../common/http/error-response.dto.js';
import { CibaAppService } from './ciba-app.service.js';
import { type LongPoller, Poller } from './long-polls.js';
import {
  AppIdentityDto,
  ApprovalStartedDto,
  CompleteRequestDto,
  PendingRequestsDto,
  PendingRequestsQueryDto,
  RequestResultDto,
  RequestStateDto,
} from './dto/ciba-app.dto.js';

const NOT_FOUND = {
  type: ErrorResponseDto,
  description: "no such request of this app id (so is a provisioning asked without its provisioning_code, or with another one's)",
};

/**
 * The verifier app's CIBA calls. POST throughout so the app secret travels in the body, never in a URL.
 * Push notifications to phones are not available: the app long-polls `requests/pending`.
 */
@ApiTags('verifier app: CIBA')
@ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'the app secret does not match the bound app' })
@Controller('app/v1/ciba')
export class CibaAppController {
  constructor(private readonly app: CibaAppService) {}

  @Post('requests/pending')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Open backchannel requests for this app (long poll up to wait_seconds)',
    description:
      'A long poll (wait_seconds above 0) is held only for an app that proves itself: the app_secret of the bound app, or the provisioning_code ' +
      'of an open provisioning for its app_id (401 at once otherwise); one client address holds a bounded number at once (429 beyond, with Retry-After).',
  })
  @ApiOkResponse({ type: PendingRequestsDto })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'this address holds as many long polls as it may; retry after the Retry-After seconds' })
  pending(@Body() dto: PendingRequestsQueryDto, @Poller() poller: LongPoller): Promise<PendingRequestsDto> {
    return this.app.pending(dto, poller);
  }

  @Post('requests/:id/status')
  @HttpCode(200)
  @ApiOperation({ summary: 'Where a request stands, e.g. cancelled by the merchant while the app shows it' })
  @ApiOkResponse({ type: RequestStateDto })
  @ApiNotFoundResponse(NOT_FOUND)
  status(@Param('id', ParseUUIDPipe) id: string, @Body() dto: AppIdentityDto): Promise<RequestStateDto> {
    return this.app.status(id, dto);
  }

  @Post('requests/:id/approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start (or resume) the document verification that approves the request; answers its session link' })
  @ApiOkResponse({ type: ApprovalStartedDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'the request was answered already' })
  approve(@Param('id', ParseUUIDPipe) id: string, @Body() dto: AppIdentityDto): Promise<ApprovalStartedDto> {
    return this.app.approve(id, dto);
  }

  @Post('requests/:id/complete')
  @HttpCode(200)
  @ApiOperation({ summary: 'After the verification: approved when it proved the right person (provisioning binds the app), else denied' })
  @ApiOkResponse({ type: RequestResultDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'the verification has not finished, or the request was answered already' })
  complete(@Param('id', ParseUUIDPipe) id: string, @Body() dto: CompleteRequestDto): Promise<RequestResultDto> {
    return this.app.complete(id, dto);
  }

  @Post('requests/:id/decline')
  @HttpCode(200)
  @ApiOperation({ summary: 'The user declined: the merchant gets access_denied' })
  @ApiOkResponse({ type: RequestResultDto })
  @ApiNotFoundResponse(NOT_FOUND)
  decline(@Param('id', ParseUUIDPipe) id: string, @Body() dto: AppIdentityDto): Promise<RequestResultDto> {
    return this.app.decline(id, dto);
  }
}
