import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { errors } from 'oidc-provider';
import { BrokeredLoginsService } from '../../broker/logins/brokered-logins.service.js';
import { interactionExpired } from '../../broker/login/login.errors.js';
import type { LoginAnswer, OwnedLogin } from '../../broker/login/login-front-doors.js';
import { LoginRequests } from '../../broker/login/login-requests.js';
import { type LoginContext, type LoginOutcome, LoginTransaction } from '../../broker/login/login-transaction.js';
import { upstreamFailurePage } from '../../broker/login/pages/upstream-pages.js';
import type { BrokeredIdentity, EidProvider } from '../../broker/spi/eid-provider.js';
import { formBody } from '../../common/http/form-body.js';
import { pageLogoOf } from '../../merchants/logos/page-logo.js';
import { MerchantsService } from '../../merchants/merchants.service.js';
import { OidcProviderService } from '../provider/oidc-provider.service.js';
import { LOGIN_OWNER_PARAM } from '../provider/extra-params.js';
import { INTERACTION_PATH } from '../provider/routes.js';
import { EngineInteractionResults, type InteractionDetails } from './engine-interaction-results.js';
import { contextTexts, requestedClaimNames, toEidRequest } from './interaction-context.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { pageSiteOf, type PageSite } from '../../common/pages/layout.js';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { ShownOfferCookie } from './shown-offer-cookie.js';

interface Loaded {
  details: InteractionDetails;
  login: LoginContext;
  /** Set when another front door started this login (LoginRequests.begin): it answers the end. */
  owned?: OwnedLogin;
}

/**
 * The OIDC front door of the broker pages: it holds the engine's interaction, asks the login transaction of the
 * broker core (src/broker/login) what comes next, and answers it: a page, a redirect, or the end of the login as
 * the engine's result (with a grant and implicit consent for the merchant) or through the hand-off of the front door
 * that started it (SAML, the credential issuer), asked through the broker core with data and answering as data
 * (LoginRequests). Only this class and its controller touch the request and the response.
 */
@Injectable()
export class InteractionService {
  private readonly site: PageSite;
  private readonly shownOffers: ShownOfferCookie;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly oidc: OidcProviderService,
    private readonly merchants: MerchantsService,
    private readonly logins: BrokeredLoginsService,
    private readonly loginRequests: LoginRequests,
    private readonly results: EngineInteractionResults,
    private readonly transaction: LoginTransaction,
    secretBox: SecretBox,
  ) {
    this.site = pageSiteOf(config);
    this.shownOffers = new ShownOfferCookie(secretBox, config.baseUrl);
  }

  async show(req: Request, res: Response): Promise<void> {
    const loaded = await this.load(req, res);
    if (loaded.details.prompt.name === 'consent') {
      // Never reached by another front door's login (it always prompts login and ends with its owner); refused if it were.
      if (loaded.owned) throw interactionExpired();
      return this.results.finishConsent(res, loaded.details);
    }
    await this.answer(res, loaded, await this.transaction.begin(loaded.login));
  }

  async showChooser(req: Request, res: Response): Promise<void> {
    const loaded = await this.load(req, res);
    await this.answer(res, loaded, this.transaction.chooser(loaded.login));
  }

  async showScheme(req: Request, res: Response, schemeId: string): Promise<void> {
    const loaded = await this.load(req, res);
    await this.answer(res, loaded, await this.transaction.schemePage(loaded.login, schemeId, req.query.progress !== undefined));
  }

  /** The credential offer this browser was shown in this login (post/redirect/get: the same offer on every reload). */
  async showOffer(req: Request, res: Response, schemeId: string): Promise<void> {
    const loaded = await this.load(req, res);
    const offer = this.shownOffers.read(req, loaded.details.uid, schemeId);
    await this.answer(res, loaded, await this.transaction.offerShown(loaded.login, schemeId, offer));
  }

  async start(req: Request, res: Response, schemeId: string): Promise<void> {
    const form = formBody(req);
    const loaded = await this.load(req, res);
    await this.answer(res, loaded, this.transaction.choose(loaded.login, schemeId, form));
  }

  async input(req: Request, res: Response, schemeId: string): Promise<void> {
    const form = formBody(req);
    const loaded = await this.load(req, res);
    await this.answer(res, loaded, await this.transaction.input(loaded.login, schemeId, form));
  }

  /** Back from a redirect scheme; needing the interaction's cookie, a state carried to another browser gets no further. */
  async resume(req: Request, res: Response, schemeId: string): Promise<void> {
    const loaded = await this.load(req, res);
    const query = Object.fromEntries(Object.entries(req.query).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    await this.answer(res, loaded, await this.transaction.resume(loaded.login, schemeId, query));
  }

  async cancel(req: Request, res: Response): Promise<void> {
    const form = formBody(req);
    const loaded = await this.load(req, res);
    await this.answer(res, loaded, this.transaction.cancel(loaded.login, form));
  }

  private async load(req: Request, res: Response): Promise<Loaded> {
    let details: InteractionDetails;
    try {
      details = await this.oidc.engine.interactionDetails(req, res);
    } catch (e) {
      if (e instanceof errors.SessionNotFound || e instanceof errors.InvalidRequest) throw interactionExpired();
      throw e;
    }
    const params = details.params as Record<string, unknown>;
    const merchant = await this.merchants.findEnabled(String(params.client_id));
    if (!merchant) throw interactionExpired();
    const request = toEidRequest(details.uid, params, merchant.name, req.headers['accept-language'], merchant.defaultUiLocale ?? undefined, {
      reusedIdentityMaxAgeDays: merchant.reusedIdentityMaxAgeDays,
    });
    // An error after this point is shown in the page's language and with the merchant's logo (see guard).
    res.locals.uiLocale = request.locale;
    const logo = pageLogoOf(merchant);
    res.locals.merchantLogo = logo;
    const login = await this.transaction.open({
      uid: details.uid,
      pagesPath: `${INTERACTION_PATH}/${details.uid}`,
      request,
      allowedSchemes: merchant.eidSchemes,
      offerCredential: merchant.offerCredential,
      context: contextTexts(params, request.bindingMessage),
      logo,
    });
    const owner = this.loginRequests.ownerOf(params[LOGIN_OWNER_PARAM], merchant.clientId);
    return { details, login, owned: owner && { ...owner, locale: request.locale } };
  }

  private async answer(res: Response, loaded: Loaded, outcome: LoginOutcome): Promise<void> {
    switch (outcome.kind) {
      case 'page':
        // 200 also on a POST (a page answered to a form, e.g. the credential offer after Continue), not Nest's 201.
        return void res.status(200).type('html').send(outcome.html);
      case 'redirect':
        return res.redirect(303, outcome.url);
      case 'offered':
        this.shownOffers.keep(res, loaded.login.pagesPath, loaded.details.uid, outcome.scheme, outcome.offer);
        return res.redirect(303, outcome.url);
      case 'identified':
        return this.finishLogin(res, loaded, outcome.scheme, outcome.identity);
      case 'failed':
        if (outcome.reason) return this.finishFailedWithPage(res, loaded, outcome.error, outcome.description, outcome.reason);
        return this.finishFailed(res, loaded, outcome.error, outcome.description);
    }
  }

  private async finishLogin(res: Response, loaded: Loaded, scheme: EidProvider, identity: BrokeredIdentity): Promise<void> {
    const { details, login, owned } = loaded;
    if (owned) return this.endOwned(res, loaded, () => this.loginRequests.identified(owned, scheme.id, identity));
    const accountId = identity.subject;
    const { clientId, scopes } = login.request;
    const grantId = await this.results.newGrant(accountId, clientId, scopes, requestedClaimNames(details.params as Record<string, unknown>));
    await this.logins.store(clientId, grantId, scheme.id, identity);
    await this.results.finish(res, details, {
      login: { accountId, acr: identity.acr, amr: identity.amr, ts: Math.floor(identity.authTime.getTime() / 1000), remember: false },
      consent: { grantId },
      select_account: {},
    });
  }

  private async finishFailed(res: Response, loaded: Loaded, error: string, description: string): Promise<void> {
    const { owned } = loaded;
    if (owned) return this.endOwned(res, loaded, () => this.loginRequests.failed(owned, error, description));
    await this.results.finish(res, loaded.details, { error, error_description: description });
  }

  /** The merchant gets the error once the user has read why, on our page, and follows its link (another front door's login ends at once). */
  private async finishFailedWithPage(res: Response, loaded: Loaded, error: string, description: string, reason: 'cancelled' | 'upstream_error'): Promise<void> {
    if (loaded.owned) return this.finishFailed(res, loaded, error, description);
    const returnTo = await this.results.saveResult(loaded.details, { error, error_description: description });
    const { request, logo } = loaded.login;
    res.type('html').send(upstreamFailurePage(this.site, request.locale, reason, request.merchantName, returnTo, logo));
  }

  /**
   * A login another front door started ends there. The engine's interaction is destroyed first, so the same pages
   * cannot end it a second time (a resubmitted form finds it expired); the owner's answer is written as it is.
   */
  private async endOwned(res: Response, loaded: Loaded, answerOf: () => Promise<LoginAnswer>): Promise<void> {
    await loaded.details.destroy();
    writeAnswer(res, await answerOf());
  }
}

/** A front door's answer (data) onto the response. */
function writeAnswer(res: Response, answer: LoginAnswer): void {
  res.set(answer.headers ?? {});
  if (answer.kind === 'redirect') return res.redirect(answer.status, answer.location);
  res.status(200).type('html').send(answer.html);
}
