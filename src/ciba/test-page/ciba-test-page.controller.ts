import { Controller, Get, Inject, NotFoundException, Param, ParseUUIDPipe, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { SPECIMEN_IDENTITIES } from '../../eid/test-eid/specimen-identities.js';
import { TEST_EID_MESSAGES } from '../../i18n/test-eid-messages.js';
import { CsrfTokens } from '../../oidc/interaction/csrf.js';
import { formBody } from '../../oidc/interaction/form-body.js';
import { CibaAppService } from '../app-api/ciba-app.service.js';
import { CibaError } from '../ciba.errors.js';
import { testPage } from './ciba-test-page.html.js';

const COOKIE = 'ciba_test_csrf';
const PATH = '/ciba/test';

/** The browser's CSRF cookie value (set by the page), if any. */
function cookieNonce(req: Request): string | undefined {
  const match = /(?:^|;\s*)ciba_test_csrf=([A-Za-z0-9_-]{16,64})(?:;|$)/.exec(req.headers.cookie ?? '');
  return match?.[1];
}

/**
 * customer-test only: a page where the test eID answers a pending CIBA request for a specimen holder, so a
 * merchant can try CIBA without a phone. In production it does not exist (404), as the test eID does not.
 * Forms carry a CSRF token bound to a random SameSite=Strict cookie of this page (the broker pages bind
 * theirs to the interaction, which this page has none of); every POST answers 303 (post/redirect/get).
 */
@ApiExcludeController()
@Controller('ciba/test')
export class CibaTestPageController {
  private readonly csrf: CsrfTokens;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly app: CibaAppService,
  ) {
    this.csrf = new CsrfTokens(config.cookieKeys[0]);
  }

  @Get()
  async show(@Req() req: Request, @Res() res: Response, @Query('app_id') appId?: string, @Query('done') done?: string): Promise<void> {
    this.onlyInCustomerTest();
    let nonce = cookieNonce(req);
    if (!nonce) {
      nonce = randomBytes(24).toString('base64url');
      const secure = this.config.baseUrl.startsWith('https://') ? '; Secure' : '';
      res.setHeader('Set-Cookie', `${COOKIE}=${nonce}; Path=${PATH}; HttpOnly; SameSite=Strict${secure}`);
    }
    const id = typeof appId === 'string' && appId.length > 0 && appId.length <= 200 ? appId : undefined;
    const requests = id ? (await this.app.pending({ app_id: id, wait_seconds: 0 })).requests : [];
    const notice = done === 'approved' || done === 'denied' ? `The request was ${done}.` : undefined;
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(testPage({ appId: id, requests, persons: SPECIMEN_IDENTITIES.map((p) => ({ id: p.id, label: `${p.name} — ${TEST_EID_MESSAGES.en_GB[p.id]}` })), csrf: this.csrf.issue(`ciba-test:${nonce}`), notice }));
  }

  @Post('requests/:id')
  async answer(@Req() req: Request, @Res() res: Response, @Param('id', ParseUUIDPipe) id: string): Promise<void> {
    this.onlyInCustomerTest();
    const body = formBody(req);
    const nonce = cookieNonce(req);
    if (!nonce || !this.csrf.verify(`ciba-test:${nonce}`, body._csrf)) throw new CibaError(403, 'csrf_rejected', 'the form is stale or was not sent by this page; reload the page');
    const appId = typeof body.app_id === 'string' ? body.app_id : '';
    const result =
      body.action === 'decline'
        ? await this.app.decline(id, { app_id: appId })
        : await this.app.completeWithTestIdentity(id, { app_id: appId }, typeof body.person === 'string' ? body.person : '');
    res.redirect(303, `${PATH}?${new URLSearchParams({ app_id: appId, done: result.state })}`);
  }

  private onlyInCustomerTest(): void {
    if (this.config.isProduction) throw new NotFoundException();
  }
}
