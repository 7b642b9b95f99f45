import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { logger } from '../../common/logging/logger.js';
import { requestIdOf } from '../../common/logging/request-context.js';
import { PendingRedirectsService } from '../../broker/spi/redirects/pending-redirects.service.js';
import { localeFromAcceptLanguage } from '../../i18n/locales.js';
import { INTERACTION_PATH } from '../provider/routes.js';
import { stateRefusedPage } from '../../broker/login/pages/upstream-pages.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { pageSiteOf } from '../../common/pages/layout.js';

/**
 * `GET /its/eid/callback`: the one redirect URI registered at every upstream. The interaction cookie is
 * scoped to the interaction's own path, so this page only finds the interaction the state was issued
 * for and sends the browser there (by GET, with the same query); that route, with the cookie, checks
 * the state is this sign-in's and uses it up. A state used, unknown or expired ends here.
 */
@ApiExcludeController()
@Controller('its/eid/callback')
export class EidCallbackController {
  constructor(
    private readonly redirects: PendingRedirectsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async callback(@Req() req: Request, @Res() res: Response): Promise<void> {
    const state = typeof req.query.state === 'string' ? req.query.state : undefined;
    const found = state && state.length <= 200 ? await this.redirects.peek(state) : ({ status: 'unknown' } as const);
    if (found.status !== 'pending') {
      logger.info({ request_id: requestIdOf(req), state: state ? found.status : 'missing' }, 'eID callback refused');
      res.status(400).type('html').send(stateRefusedPage(pageSiteOf(this.config), localeFromAcceptLanguage(req.get('accept-language')), 'invalid_state', requestIdOf(req)));
      return;
    }
    const query = new URL(req.originalUrl, 'http://x').search;
    res.redirect(303, `${INTERACTION_PATH}/${encodeURIComponent(found.interactionUid)}/eid/${encodeURIComponent(found.scheme)}/return${query}`);
  }
}
