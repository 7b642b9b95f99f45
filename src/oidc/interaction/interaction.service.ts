import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import { errors } from 'oidc-provider';
import { AppError } from '../../common/errors/app-error.js';
import { asAppError } from '../../common/errors/temporarily-unavailable.js';
import { logger } from '../../common/logging/logger.js';
import { Telemetry } from '../../common/telemetry/telemetry.js';
import { requestIdOf } from '../../common/logging/request-context.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { type BrokeredIdentity, type EidProvider, type EidRequest, type EidStep, resumesRedirect } from '../../broker/spi/eid-provider.js';
import { EidRegistry } from '../../broker/schemes/eid-registry.js';
import { PendingRedirectsService } from '../../broker/spi/redirects/pending-redirects.service.js';
import { MerchantsService } from '../../merchants/merchants.service.js';
import { pageLogoOf } from '../../merchants/logos/page-logo.js';
import type { PageLogo } from '../../common/pages/page-logo.js';
import { BrokeredLoginsService } from '../../broker/logins/brokered-logins.service.js';
import { errorPage } from '../../common/pages/error-page.js';
import { OidcProviderService } from '../provider/oidc-provider.service.js';
import { INTERACTION_PATH } from '../provider/routes.js';
import { CsrfTokens } from '../../common/pages/csrf.js';
import { isUiLocale, localeFromAcceptLanguage, type UiLocale } from '../../i18n/locales.js';
import { contextTexts, requestedClaimNames, toEidRequest } from './interaction-context.js';
import { formBody } from '../../common/http/form-body.js';
import { InteractionHandoffs } from './interaction-handoff.js';
import { EngineInteractionResults, type InteractionDetails } from './engine-interaction-results.js';
import { csrfRejected, interactionExpired, schemeNotAllowed, stateRefused } from './interaction.errors.js';
import { choicesPage } from './pages/choices-page.js';
import { upstreamFailurePage } from './pages/upstream-pages.js';
import { waitingPage } from './pages/waiting-page.js';

type Details = InteractionDetails;
interface Loaded {
  details: Details;
  request: EidRequest;
  schemes: EidProvider[];
  logo?: PageLogo;
}

/**
 * The broker pages between the authorization request and the redirect back: pick a scheme, let it run,
 * turn its brokered identity into the engine's login result with implicit consent for the merchant.
 */
@Injectable()
export class InteractionService {
  private readonly csrf: CsrfTokens;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly oidc: OidcProviderService,
    private readonly registry: EidRegistry,
    private readonly merchants: MerchantsService,
    private readonly logins: BrokeredLoginsService,
    private readonly handoffs: InteractionHandoffs,
    private readonly redirects: PendingRedirectsService,
    private readonly results: EngineInteractionResults,
    @Optional() private readonly telemetry?: Telemetry,
  ) {
    this.csrf = new CsrfTokens(config.cookieKeys[0]);
  }

  show(req: Request, res: Response): Promise<void> {
    return this.guard(req, res, async () => {
      const loaded = await this.load(req, res);
      if (loaded.details.prompt.name === 'consent') return this.results.finishConsent(res, loaded.details);
      const { request, schemes } = loaded;
      const chosen = this.registry.preselected(schemes, request.loginHint, request.acrValues) ?? (schemes.length === 1 ? schemes[0] : undefined);
      if (chosen) {
        this.telemetry?.emit('loginStarted', chosen.id);
        return this.runStep(req, res, loaded, chosen, await chosen.start(request));
      }
      this.render(res, loaded, {
        heading: request.messages.signInTo.replace('{merchant}', request.merchantName),
        intro: request.messages.chooseMethod,
        choices: schemes.map((s) => ({
          action: `${INTERACTION_PATH}/${request.interactionUid}/eid/${s.id}/start`,
          label: s.displayName(request.messages, request.locale),
          fields: {},
          data: { eid: s.id },
        })),
      });
    });
  }

  /**
   * GET of a scheme's page: what the scheme shows now (its start is safe to repeat: a reload shows the same).
   * `?progress` is the waiting page's no-script refresh: answered as Continue is (the scheme's handle, no
   * input), so a session the phone ended (done, cancelled) ends the sign-in without a script.
   */
  showScheme(req: Request, res: Response, schemeId: string): Promise<void> {
    return this.guard(req, res, async () => {
      const loaded = await this.load(req, res);
      const scheme = this.scheme(loaded, schemeId);
      const step = req.query.progress !== undefined ? await scheme.handle(loaded.request, {}) : await scheme.start(loaded.request);
      await this.runStep(req, res, loaded, scheme, step);
    });
  }

  /** The user picked a scheme: on to its page, by GET. */
  start(req: Request, res: Response, schemeId: string): Promise<void> {
    return this.guard(req, res, async () => {
      const body = formBody(req);
      const loaded = await this.load(req, res);
      this.checkCsrf(loaded, body);
      const scheme = this.scheme(loaded, schemeId);
      this.telemetry?.emit('loginStarted', scheme.id);
      res.redirect(303, this.schemePage(loaded, scheme));
    });
  }

  input(req: Request, res: Response, schemeId: string): Promise<void> {
    return this.guard(req, res, async () => {
      const body = formBody(req);
      const loaded = await this.load(req, res);
      this.checkCsrf(loaded, body);
      const scheme = this.scheme(loaded, schemeId);
      const fields = Object.fromEntries(Object.entries(body).filter(([k, v]) => k !== '_csrf' && typeof v === 'string')) as Record<string, string>;
      const step = await scheme.handle(loaded.request, fields);
      // A page to show again (a choice not understood, a phone not done yet) is shown by GET.
      if (step.kind === 'choices' || step.kind === 'waiting') return res.redirect(303, this.schemePage(loaded, scheme));
      await this.runStep(req, res, loaded, scheme, step);
    });
  }

  /**
   * Back from a redirect scheme. The state (a one-time secret the scheme handed out) must be pending for
   * this very interaction and scheme; it is used up before the scheme sees the answer, so a replay finds
   * it gone. Needing the interaction's cookie, a state carried to another browser gets no further.
   */
  resume(req: Request, res: Response, schemeId: string): Promise<void> {
    return this.guard(req, res, async () => {
      const loaded = await this.load(req, res);
      const scheme = this.scheme(loaded, schemeId);
      if (!resumesRedirect(scheme)) throw schemeNotAllowed(schemeId);
      const query = Object.fromEntries(Object.entries(req.query).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
      const pending = query.state ? await this.redirects.consume(query.state, loaded.details.uid, scheme.id) : undefined;
      if (!pending) throw stateRefused('the answer belongs to no sign-in in progress, or was already used');
      await this.runStep(req, res, loaded, scheme, await scheme.resume(loaded.request, pending, query));
    });
  }

  cancel(req: Request, res: Response): Promise<void> {
    return this.guard(req, res, async () => {
      const body = formBody(req);
      const loaded = await this.load(req, res);
      this.checkCsrf(loaded, body);
      await this.finishFailed(req, res, loaded, 'access_denied', 'the user cancelled the sign-in');
    });
  }

  private async load(req: Request, res: Response): Promise<Loaded> {
    let details: Details;
    try {
      details = await this.oidc.engine.interactionDetails(req, res);
    } catch (e) {
      if (e instanceof errors.SessionNotFound || e instanceof errors.InvalidRequest) throw interactionExpired();
      throw e;
    }
    const params = details.params as Record<string, unknown>;
    const merchant = await this.merchants.findEnabled(String(params.client_id));
    if (!merchant) throw interactionExpired();
    await this.registry.refresh();
    const request = toEidRequest(details.uid, params, merchant.name, req.headers['accept-language'], merchant.defaultUiLocale ?? undefined);
    // An error after this point is shown in the page's language and with the merchant's logo (see guard).
    res.locals.uiLocale = request.locale;
    const logo = pageLogoOf(merchant);
    res.locals.merchantLogo = logo;
    return { details, request, schemes: this.registry.forRequest(merchant.eidSchemes, request.acrValues), logo };
  }

  private schemePage(loaded: Loaded, scheme: EidProvider): string {
    return `${INTERACTION_PATH}/${loaded.details.uid}/eid/${encodeURIComponent(scheme.id)}`;
  }

  private scheme(loaded: Loaded, id: string): EidProvider {
    const scheme = loaded.schemes.find((s) => s.id === id);
    if (!scheme) throw schemeNotAllowed(id);
    return scheme;
  }

  private checkCsrf(loaded: Loaded, body: Record<string, unknown>): void {
    if (!this.csrf.verify(loaded.details.uid, body._csrf)) throw csrfRejected();
  }

  private async runStep(req: Request, res: Response, loaded: Loaded, scheme: EidProvider, step: EidStep): Promise<void> {
    switch (step.kind) {
      case 'choices':
        return this.render(res, loaded, {
          heading: loaded.request.messages.signInTo.replace('{merchant}', loaded.request.merchantName),
          subheading: step.title,
          intro: step.intro,
          choices: step.choices.map((c) => ({ ...c, action: `${INTERACTION_PATH}/${loaded.request.interactionUid}/eid/${scheme.id}` })),
        });
      case 'redirect':
        return res.redirect(303, step.url);
      case 'waiting':
        return void res.type('html').send(
          waitingPage({
            locale: loaded.request.locale,
            messages: loaded.request.messages,
            heading: loaded.request.messages.signInTo.replace('{merchant}', loaded.request.merchantName),
            title: step.title,
            instructions: step.instructions,
            context: contextTexts(loaded.details.params as Record<string, unknown>, loaded.request.bindingMessage),
            qrSvg: step.qrSvg,
            link: step.link,
            statusUrl: step.statusUrl,
            progress: step.progress,
            refreshUrl: `${this.schemePage(loaded, scheme)}?progress`,
            continueAction: `${INTERACTION_PATH}/${loaded.request.interactionUid}/eid/${scheme.id}`,
            cancelAction: `${INTERACTION_PATH}/${loaded.request.interactionUid}/cancel`,
            csrf: this.csrf.issue(loaded.details.uid),
            logo: loaded.logo,
          }),
        );
      case 'failed':
        this.telemetry?.emit('loginFinished', scheme.id, 'failure');
        if (step.reason) return this.finishFailedWithPage(req, res, loaded, step.error, step.description, step.reason);
        return this.finishFailed(req, res, loaded, step.error, step.description);
      case 'identified':
        this.telemetry?.emit('loginFinished', scheme.id, 'success');
        return this.finishLogin(req, res, loaded, scheme, step.identity);
    }
  }

  private async finishLogin(req: Request, res: Response, loaded: Loaded, scheme: EidProvider, identity: BrokeredIdentity): Promise<void> {
    const { details, request } = loaded;
    const handoff = await this.handoffOf(loaded);
    if (handoff) return handoff.identified(req, res, details.params as Record<string, unknown>, scheme.id, identity);
    const accountId = identity.subject;
    const grantId = await this.results.newGrant(accountId, request.clientId, request.scopes, requestedClaimNames(details.params as Record<string, unknown>));
    await this.logins.store(request.clientId, grantId, scheme.id, identity);
    await this.results.finish(res, details, {
      login: { accountId, acr: identity.acr, amr: identity.amr, ts: Math.floor(identity.authTime.getTime() / 1000), remember: false },
      consent: { grantId },
      select_account: {},
    });
  }

  private async finishFailed(req: Request, res: Response, loaded: Loaded, error: string, description: string): Promise<void> {
    const handoff = await this.handoffOf(loaded);
    if (handoff) return handoff.failed(req, res, loaded.details.params as Record<string, unknown>, error, description);
    await this.results.finish(res, loaded.details, { error, error_description: description });
  }

  /** The merchant gets the error once the user has read why, on our page, and follows its link. */
  private async finishFailedWithPage(req: Request, res: Response, loaded: Loaded, error: string, description: string, reason: 'cancelled' | 'upstream_error'): Promise<void> {
    if (await this.handoffs.find(loaded.details.params as Record<string, unknown>)) return this.finishFailed(req, res, loaded, error, description);
    const returnTo = await this.results.saveResult(loaded.details, { error, error_description: description });
    res.type('html').send(upstreamFailurePage(loaded.request.locale, reason, loaded.request.merchantName, returnTo, loaded.logo));
  }

  /**
   * A login another front door started ends there. The engine's interaction is destroyed first, so the
   * same pages cannot end it a second time (a resubmitted form finds it expired).
   */
  private async handoffOf(loaded: Loaded) {
    const handoff = await this.handoffs.find(loaded.details.params as Record<string, unknown>);
    if (handoff) await loaded.details.destroy();
    return handoff;
  }

  private render(
    res: Response,
    loaded: Loaded,
    page: { heading: string; subheading?: string; intro?: string; choices: { action: string; label: string; detail?: string; fields: Record<string, string>; data: Record<string, string> }[] },
  ): void {
    const { request, details } = loaded;
    res.type('html').send(
      choicesPage({
        ...page,
        locale: request.locale,
        messages: request.messages,
        context: contextTexts(details.params as Record<string, unknown>, request.bindingMessage),
        csrf: this.csrf.issue(details.uid),
        cancelAction: `${INTERACTION_PATH}/${details.uid}/cancel`,
        logo: loaded.logo,
      }),
    );
  }

  private errorLocale(req: Request, res: Response): UiLocale {
    return isUiLocale(res.locals.uiLocale) ? res.locals.uiLocale : localeFromAcceptLanguage(req.headers['accept-language']);
  }

  /** Broker pages answer errors as HTML pages in the page's language, else the browser's (Accept-Language). */
  private async guard(req: Request, res: Response, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (caught) {
      const e = asAppError(caught);
      const status = e instanceof AppError ? e.status : 500;
      // A store outage is logged once by its client, not once per page.
      if (status >= 500 && e === caught) logger.error({ err: e, request_id: requestIdOf(req) }, 'interaction failed');
      const code = e instanceof AppError ? e.code : 'server_error';
      const description = e instanceof AppError ? e.description : 'internal server error';
      if (!res.headersSent && e instanceof AppError && e.headers) res.set(e.headers);
      if (!res.headersSent) res.status(status).type('html').send(errorPage(this.errorLocale(req, res), code, description, requestIdOf(req), res.locals.merchantLogo as PageLogo | undefined));
    }
  }
}
