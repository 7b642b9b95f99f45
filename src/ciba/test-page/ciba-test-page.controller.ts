import { Controller, Get, HttpCode, Inject, NotFoundException, Param, ParseUUIDPipe, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { SPECIMEN_IDENTITIES } from '../../verifier-claims/specimen-identities.js';
import { PageCsrf } from '../../common/pages/page-csrf.js';
import { formBody } from '../../common/http/form-body.js';
import { CibaAppService } from '../app-api/ciba-app.service.js';
import { CibaError } from '../ciba.errors.js';
import { testPage } from './ciba-test-page.html.js';
import { pageSiteOf } from '../../common/pages/layout.js';

const PATH = '/ciba/test';

const appIdOf = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : undefined);
const codeOf = (value: unknown): string | undefined => (typeof value === 'string' && value.trim().length > 0 && value.length <= 64 ? value : undefined);

/**
 * customer-test only: a page where the test eID answers a pending CIBA request for a specimen holder, so a
 * merchant can try CIBA without a phone. In production it does not exist (404), as the test eID does not.
 * Forms carry a CSRF token bound to a random SameSite=Strict cookie of this page (the broker pages bind
 * theirs to the interaction, which this page has none of); an answer answers 303 (post/redirect/get). A
 * provisioning shows only with the one-time code the merchant received, as in the app: the lookup with a code
 * is a POST (the code stays out of URLs), and the answer forms carry it.
 */
@ApiExcludeController()
@Controller('ciba/test')
export class CibaTestPageController {
  private readonly csrf: PageCsrf;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly app: CibaAppService,
  ) {
    this.csrf = new PageCsrf(config, 'ciba_test_csrf', PATH, 'ciba-test');
  }

  @Get()
  async show(@Req() req: Request, @Res() res: Response, @Query('app_id') appId?: string, @Query('done') done?: string): Promise<void> {
    this.onlyInCustomerTest();
    const notice = done === 'approved' || done === 'denied' ? `The request was ${done}.` : undefined;
    await this.render(req, res, appIdOf(appId), undefined, notice);
  }

  /** The lookup with a provisioning code (a POST, so the code is in no URL). */
  @Post()
  @HttpCode(200)
  async lookUp(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.onlyInCustomerTest();
    const body = this.checkedForm(req);
    await this.render(req, res, appIdOf(body.app_id), codeOf(body.provisioning_code));
  }

  @Post('requests/:id')
  async answer(@Req() req: Request, @Res() res: Response, @Param('id', ParseUUIDPipe) id: string): Promise<void> {
    this.onlyInCustomerTest();
    const body = this.checkedForm(req);
    const app = { app_id: typeof body.app_id === 'string' ? body.app_id : '', provisioning_code: codeOf(body.provisioning_code) };
    const result =
      body.action === 'decline'
        ? await this.app.decline(id, app)
        : await this.app.completeWithTestIdentity(id, app, typeof body.person === 'string' ? body.person : '');
    res.redirect(303, `${PATH}?${new URLSearchParams({ app_id: app.app_id, done: result.state })}`);
  }

  private async render(req: Request, res: Response, appId: string | undefined, provisioningCode: string | undefined, notice?: string): Promise<void> {
    const csrf = this.csrf.issue(req, res);
    const requests = appId ? (await this.app.pending({ app_id: appId, provisioning_code: provisioningCode, wait_seconds: 0 })).requests : [];
    const persons = SPECIMEN_IDENTITIES.map((p) => ({ id: p.id, label: `${p.name} — ${p.document}` }));
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(testPage({ site: pageSiteOf(this.config), appId, provisioningCode, requests, persons, csrf, notice }));
  }

  private checkedForm(req: Request): Record<string, unknown> {
    const body = formBody(req);
    if (!this.csrf.verify(req, body._csrf)) throw new CibaError(403, 'csrf_rejected', 'the form is stale or was not sent by this page; reload the page');
    return body;
  }

  private onlyInCustomerTest(): void {
    if (this.config.isProduction) throw new NotFoundException();
  }
}
