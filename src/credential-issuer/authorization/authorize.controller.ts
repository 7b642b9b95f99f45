import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { issuerUrls } from '../credential-issuer-paths.js';
import { AuthorizationRefusal, checkAuthorizationRequest } from './authorization-request.js';
import { WalletSignIn } from './wallet-sign-in.js';

/**
 * The authorization endpoint of the issuer's authorization server (OpenID4VCI 1.0 §5), for registered wallets: the
 * browser goes on to a document verification; the wallet hears back at its redirect URI.
 */
@ApiExcludeController()
@Controller()
export class AuthorizeController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly signIn: WalletSignIn,
  ) {}

  @Get('vci/authorize')
  async authorize(@Query() query: Record<string, unknown>, @Res() res: Response): Promise<void> {
    try {
      const request = checkAuthorizationRequest(query, this.config.credentialIssuer.walletClients);
      const { location } = await this.signIn.begin(request);
      res.set('Cache-Control', 'no-store').redirect(303, location);
    } catch (err) {
      // Without a redirect URI to trust, the person is told on the error page (the error renderer's).
      if (!(err instanceof AuthorizationRefusal) || !err.redirect) throw err;
      const url = new URL(err.redirect.redirectUri);
      url.searchParams.set('error', err.code);
      url.searchParams.set('error_description', err.description);
      if (err.redirect.state !== undefined) url.searchParams.set('state', err.redirect.state);
      url.searchParams.set('iss', issuerUrls(this.config.baseUrl).issuer);
      res.redirect(303, url.toString());
    }
  }
}
