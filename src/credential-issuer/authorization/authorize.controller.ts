import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { requestIdOf } from '../../common/logging/request-context.js';
import { errorPage } from '../../common/pages/error-page.js';
import { pageSiteOf } from '../../common/pages/layout.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { pickLocale } from '../../i18n/locales.js';
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
  async authorize(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    try {
      const request = checkAuthorizationRequest(query, this.config.credentialIssuer.walletClients);
      res.set('Cache-Control', 'no-store').redirect(303, await this.signIn.begin(request));
    } catch (err) {
      if (!(err instanceof AuthorizationRefusal)) throw err;
      if (err.redirect) {
        const url = new URL(err.redirect.redirectUri);
        url.searchParams.set('error', err.code);
        url.searchParams.set('error_description', err.description);
        if (err.redirect.state !== undefined) url.searchParams.set('state', err.redirect.state);
        url.searchParams.set('iss', issuerUrls(this.config.baseUrl).issuer);
        return void res.redirect(303, url.toString());
      }
      const locale = pickLocale(undefined, query.ui_locales, req.headers['accept-language']);
      res.status(400).type('html').send(errorPage(pageSiteOf(this.config), locale, err.code, err.description, requestIdOf(req)));
    }
  }
}
