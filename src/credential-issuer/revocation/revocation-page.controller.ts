import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { OwnPageError } from '../../common/errors/app-error.js';
import { CsrfTokens } from '../../common/pages/csrf.js';
import { PageCsrf } from '../../common/pages/page-csrf.js';
import { pageSiteOf, type PageSite } from '../../common/pages/layout.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { pickLocale, type UiLocale } from '../../i18n/locales.js';
import { CredentialIssuancesService } from '../issuances/credential-issuances.service.js';
import { CredentialStatusService } from '../status/credential-status.service.js';
import { hashOfPresentedHandle } from './revocation-handle.js';
import { confirmRevocationPage, formRejectedPage, nothingToRevokePage, revokedPage } from './revocation-pages.js';

const PATH = '/vci/revoke';
const FORM = 'application/x-www-form-urlencoded';
/** The browser that revoked: shown the answer page by GET (post/redirect/get) while the link itself is known no more. */
const REVOKED_COOKIE = 'vci_revoked';
const REVOKED_PATTERN = new RegExp(`(?:^|;\\s*)${REVOKED_COOKIE}=([A-Za-z0-9_-]{43})(?:;|$)`);
const REVOKED_SECONDS = 600;

/**
 * The person's own revocation (contract: GET|POST /vci/revoke/:handle): the link they were given with their
 * credentials asks first, and revokes every credential of that issuance on the form's POST. The form's CSRF token
 * is bound to a random SameSite=Strict cookie of this page and to the handle, so another site can neither post it
 * nor reuse one page's token for another handle. An unknown, expired or used handle gets the same 404 page.
 * The link is shown with the offer, so it works before the wallet took it too: revoking then burns the offer
 * (shown, or redeemed and not yet issued), and the wallet gets nothing from it. The POST answers 303 to the GET
 * (post/redirect/get: a reload never posts again); the GET shows "revoked" to the browser that revoked, which carries a
 * proof for this handle (an HMAC under the cookie key, in an HttpOnly cookie of the link's path), and 404 to any other.
 */
@ApiExcludeController()
@Controller('vci/revoke')
export class RevocationPageController {
  private readonly csrf: PageCsrf;
  private readonly site: PageSite;
  private readonly revokedProofs: CsrfTokens;
  private readonly secure: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly status: CredentialStatusService,
    private readonly issuances: CredentialIssuancesService,
  ) {
    this.csrf = new PageCsrf(config, 'vci_revoke_csrf', PATH, 'vci-revoke');
    this.site = pageSiteOf(config);
    this.revokedProofs = new CsrfTokens(config.cookieKeys[0]);
    this.secure = config.baseUrl.startsWith('https://') ? '; Secure' : '';
  }

  @Get(':handle')
  async ask(@Param('handle') handle: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const locale = (res.locals.uiLocale = localeOf(req, req.query as Record<string, unknown>));
    const hash = hashOfPresentedHandle(handle);
    if (!hash) throw nothingToRevoke();
    if (!(await this.isLive(hash))) {
      if (this.revokedHere(req, hash)) return send(res, revokedPage(this.site, locale));
      throw nothingToRevoke();
    }
    send(res, confirmRevocationPage(this.site, locale, `${PATH}/${handle}`, this.csrf.issue(req, res, hash)));
  }

  @Post(':handle')
  @HttpCode(303)
  async revoke(@Param('handle') handle: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const form = req.is(FORM) && typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>) : {};
    const locale = (res.locals.uiLocale = localeOf(req, form));
    const hash = hashOfPresentedHandle(handle);
    if (!hash) throw nothingToRevoke();
    if (!this.csrf.verify(req, form._csrf, hash)) throw formRejected();
    // The offer first: an issuance racing with this either committed before (its status rows are revoked next) or
    // finds the offer burnt and issues nothing.
    const burnt = await this.issuances.burnUnissuedOffer(hash);
    const { revoked } = await this.status.revokeByHandleHash(hash);
    if (!burnt && revoked === 0) throw nothingToRevoke();
    const proof = this.revokedProofs.issue(`vci-revoked:${hash}`);
    res.setHeader('Set-Cookie', `${REVOKED_COOKIE}=${proof}; Path=${PATH}/${handle}; Max-Age=${REVOKED_SECONDS}; HttpOnly; SameSite=Strict${this.secure}`);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, `${PATH}/${handle}?${new URLSearchParams({ ui_locale: locale })}`);
  }

  private revokedHere(req: Request, hash: string): boolean {
    return this.revokedProofs.verify(`vci-revoked:${hash}`, REVOKED_PATTERN.exec(req.headers.cookie ?? '')?.[1]);
  }

  /** Something left to revoke: an offer not yet issued, or a credential issued from it still valid. */
  private async isLive(hash: string): Promise<boolean> {
    return (await this.issuances.hasUnissuedOffer(hash)) || this.status.handleIsLive(hash);
  }
}

/** The language of this link's pages, its refusals included (the error renderer reads it from res.locals.uiLocale). */
const localeOf = (req: Request, params: Record<string, unknown>): UiLocale => pickLocale(params.ui_locale, params.ui_locales, req.headers['accept-language']);

// Refusals are the error renderer's to answer, each on its own page (never kept by a cache: OwnPageError).
const nothingToRevoke = () => new OwnPageError(404, 'not_found', 'nothing to revoke at this link', (site, locale) => nothingToRevokePage(site, locale));
const formRejected = () => new OwnPageError(403, 'forbidden', 'the revocation form is not valid any more', (site, locale) => formRejectedPage(site, locale));

function send(res: Response, page: string): void {
  // The page answers for one person's link: never kept by a cache, never sent on as a referrer (layout's meta).
  res.setHeader('Cache-Control', 'no-store');
  res.status(200).type('html').send(page);
}
