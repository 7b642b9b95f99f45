import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { logger } from '../../common/logging/logger.js';
import { requestIdOf } from '../../common/logging/request-context.js';
import { PendingRedirectsService } from '../../broker/spi/redirects/pending-redirects.service.js';
import { OwnPageError } from '../../common/errors/app-error.js';
import { INTERACTION_PATH } from '../provider/routes.js';
import { stateRefusedPage } from '../../broker/login/pages/upstream-pages.js';

/**
 * `GET /its/eid/callback`: the one redirect URI registered at every upstream. The interaction cookie is
 * scoped to the interaction's own path, so this page only finds the interaction the state was issued
 * for and sends the browser there (by GET, with the same query); that route, with the cookie, checks
 * the state is this sign-in's and uses it up. A state used, unknown or expired ends here.
 */
@ApiExcludeController()
@Controller('its/eid/callback')
export class EidCallbackController {
  constructor(private readonly redirects: PendingRedirectsService) {}

  @Get()
  async callback(@Req() req: Request, @Res() res: Response): Promise<void> {
    const state = typeof req.query.state === 'string' ? req.query.state : undefined;
    const found = state && state.length <= 200 ? await this.redirects.peek(state) : ({ status: 'unknown' } as const);
    if (found.status !== 'pending') {
      logger.info({ request_id: requestIdOf(req), state: state ? found.status : 'missing' }, 'eID callback refused');
      throw new OwnPageError(400, 'invalid_state', 'the sign-in state is used, unknown or expired', (site, locale, requestId) =>
        stateRefusedPage(site, locale, 'invalid_state', requestId),
      );
    }
    const query = new URL(req.originalUrl, 'http://x').search;
    res.redirect(303, `${INTERACTION_PATH}/${encodeURIComponent(found.interactionUid)}/eid/${encodeURIComponent(found.scheme)}/return${query}`);
  }
}
