import { Body, Controller, Get, Header, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../../common/http/error-response.dto.js';
import { TestCredentialDto, TestCredentialRequestDto } from './test-credentials.dto.js';
import { WalletTestCredentialsService } from './test-credentials.service.js';

@ApiTags('EU wallet (customer-test)')
@Controller('wallet/v1')
export class WalletTestCredentialsController {
  constructor(private readonly credentials: WalletTestCredentialsService) {}

  @Post('test-credentials')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'customer-test only: a test PID or mDL for a wallet, bound to its key, issued by this environment’s test PID provider or IACA' })
  @ApiOkResponse({ type: TestCredentialDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'production has no test credentials' })
  issue(@Body() dto: TestCredentialRequestDto): Promise<TestCredentialDto> {
    return this.credentials.issue(dto.kind, dto.holder_key);
  }

  @Get('test-status-lists/1')
  @Header('Content-Type', 'application/statuslist+jwt')
  @ApiExcludeEndpoint()
  statusList(): Promise<string> {
    return this.credentials.statusList();
  }
}
