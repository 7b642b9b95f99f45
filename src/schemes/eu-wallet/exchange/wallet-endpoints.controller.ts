import { Controller, Get, Header, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { formBody } from '../../../common/http/form-body.js';
import { WalletExchangeService, type ResponseAnswer } from './wallet-exchange.service.js';

/**
 * What wallets call (OpenID4VP 1.0): the request_uri, by GET or by POST (`request_uri_method=post`, §5.10), answers
 * the signed request object (whose flow its transaction fixed when made: no parameter of the fetch chooses it); the response_uri takes the encrypted answer (`direct_post.jwt`, §8.3.1). Not for
 * browsers or merchants, so not in the API reference.
 */
@ApiExcludeController()
@Controller('wallet/v1')
export class WalletEndpointsController {
  constructor(private readonly exchange: WalletExchangeService) {}

  @Get('requests/:id')
  @Header('Content-Type', 'application/oauth-authz-req+jwt')
  @Header('Cache-Control', 'no-store')
  requestByGet(@Param('id') id: string): Promise<string> {
    return this.exchange.requestObject(id);
  }

  @Post('requests/:id')
  @HttpCode(200)
  @Header('Content-Type', 'application/oauth-authz-req+jwt')
  @Header('Cache-Control', 'no-store')
  requestByPost(@Param('id') id: string, @Req() req: Request): Promise<string> {
    return this.exchange.requestObject(id, formBody(req));
  }

  @Post('responses/:id')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  respond(@Param('id') id: string, @Req() req: Request): Promise<ResponseAnswer> {
    return this.exchange.respond(id, formBody(req));
  }
}
