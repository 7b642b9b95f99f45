import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { NotFoundError } from '../../common/errors/app-error.js';
import { ErrorResponseDto } from '../../common/http/error-response.dto.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { STATUS_LIST_ID } from './status-list-paths.js';
import { StatusListTokens } from './status-list-tokens.service.js';

@ApiTags('credential issuer')
@Controller('vci/status-lists')
export class StatusListController {
  constructor(
    private readonly tokens: StatusListTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Token Status List §8.1: the Status List Token, `application/statuslist+jwt`, cacheable for its ttl. */
  @Get(':listId')
  @ApiOperation({ summary: 'The Status List Token (JWT) of the credentials that name this list in status.status_list.uri' })
  @ApiParam({ name: 'listId', description: 'the list id of status.status_list.uri', example: 'q3Lx0Vb8mT2kR9wA' })
  @ApiProduces('application/statuslist+jwt')
  @ApiOkResponse({ description: 'the signed statuslist+jwt', schema: { type: 'string', example: 'eyJhbGciOiJFUzI1NiIsInR5cCI6InN0YXR1c2xpc3Qrand0Iiwi…' } })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async get(@Param('listId') listId: string, @Res() res: Response): Promise<void> {
    // Bounded input: anything not shaped like our ids is no list, without a query.
    const token = STATUS_LIST_ID.test(listId) ? await this.tokens.token(listId) : undefined;
    if (!token) throw new NotFoundError('status list');
    res.setHeader('Cache-Control', `max-age=${this.config.credentialIssuer.statusListTtlSeconds}`);
    // A public document: relying parties in browsers may fetch it too.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.status(200).type('application/statuslist+jwt').send(token);
  }
}
