import { Inject, Injectable, type OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { discovered } from '../../common/discovery/discovered.js';
import { CsrfTokens } from '../../common/pages/csrf.js';
import type { PageLogo } from '../../common/pages/page-logo.js';
import { Telemetry } from '../../common/telemetry/telemetry.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { EidRegistry } from '../schemes/eid-registry.js';
import { type BrokeredIdentity, type EidProvider, type EidRequest, type EidStep, resumesRedirect } from '../spi/eid-provider.js';
import { PendingRedirectsService } from '../spi/redirects/pending-redirects.service.js';
import { type CredentialOfferMaker, CredentialOfferMakerProvider, type ShownOffer } from '../spi/credential-offers.js';
import { offerPage } from './pages/offer-page.js';
import { csrfRejected, schemeNotAllowed, stateRefused } from './login.errors.js';
import { choicesPage, type ChoiceForm } from './pages/choices-page.js';
import { waitingPage } from './pages/waiting-page.js';
import type { WayBack } from './pages/way-back.js';
import { pageSiteOf, type PageSite } from '../../common/pages/layout.js';

/** One login in progress, as the front door that holds it (the engine's interaction) describes it to the core. */
export interface LoginContext {
  /** The interaction's id: CSRF tokens and pending redirects are bound to it. */
  uid: string;
  /** Where its pages live (`/its/interaction/<uid>`): every action and link on them starts here. */
  pagesPath: string;
  request: EidRequest;
  /** The schemes this merchant may use for this request. */
  schemes: EidProvider[];
  /** What the merchant asked us to show the user (binding message, service context), as plain text. */
  context: string[];
  logo?: PageLogo;
  /** The merchant asked for a credential offer at the end of a sign-in with a passed document verification. */
  offerCredential?: boolean;
}

/**
 * What the front door does next. A page or a redirect it answers as it is; an identity or a failure ends the login
 * its way (the engine's result with a grant, or a hand-off to the front door that started it). `reason`: the user
 * reads what happened on our page before the merchant hears of it.
 */
export type LoginOutcome =
  | { kind: 'page'; html: string }
  | { kind: 'redirect'; url: string }
  /** An offer was made: the front door keeps it for this browser and login, and answers 303 to `url` (its page, by GET). */
  | { kind: 'offered'; scheme: string; offer: ShownOffer; url: string }
  | { kind: 'identified'; scheme: EidProvider; identity: BrokeredIdentity }
  | { kind: 'failed'; error: string; description: string; reason?: 'cancelled' | 'upstream_error' };

export interface LoginOpening {
  uid: string;
  pagesPath: string;
  request: EidRequest;
  /** The merchant's own list of schemes (null: all of this environment's). */
  allowedSchemes: string[] | null | undefined;
  context: string[];
  logo?: PageLogo;
  offerCredential?: boolean;
}

/**
 * The login transaction between the authorization request and the end of the login: pick a scheme, let it run,
 * answer its identity or its failure. It knows no protocol and touches no request or response: the front doors
 * call it with a LoginContext and answer its LoginOutcome.
 */
@Injectable()
export class LoginTransaction implements OnModuleInit {
  private readonly csrf: CsrfTokens;
  private readonly site: PageSite;
  private offerMaker?: CredentialOfferMaker;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly registry: EidRegistry,
    private readonly redirects: PendingRedirectsService,
    private readonly discovery: DiscoveryService,
    @Optional() private readonly telemetry?: Telemetry,
  ) {
    this.csrf = new CsrfTokens(config.cookieKeys[0]);
    this.site = pageSiteOf(config);
  }

  onModuleInit(): void {
    this.offerMaker = discovered<CredentialOfferMaker>(this.discovery, CredentialOfferMakerProvider)[0];
  }

  /** The context of a login, with the schemes it may use now (the registry asks its sources again). */
  async open(opening: LoginOpening): Promise<LoginContext> {
    await this.registry.refresh();
    const { allowedSchemes, ...rest } = opening;
    return { ...rest, schemes: this.registry.forRequest(allowedSchemes, opening.request.acrValues) };
  }

  /** The first page: the scheme the request selects (or the only one) at once, else the choice. */
  async begin(login: LoginContext): Promise<LoginOutcome> {
    const { request, schemes } = login;
    const chosen = this.registry.preselected(schemes, request.loginHint, request.acrValues) ?? (schemes.length === 1 ? schemes[0] : undefined);
    if (chosen) {
      this.telemetry?.emit('loginStarted', chosen.id);
      return this.outcomeOf(login, chosen, await chosen.start(request));
    }
    return this.chooser(login);
  }

  /**
   * The choice of schemes, also when the request preselected one (login_hint, acr_values): the way back from a
   * scheme's page. A scheme's session left behind (a phone link) expires on its own; picking the scheme again
   * shows the same session, as a reload would.
   */
  chooser(login: LoginContext): LoginOutcome {
    const { request, schemes } = login;
    return this.choices(login, {
      heading: this.heading(login),
      intro: request.messages.chooseMethod,
      choices: schemes.map((s) => ({
        action: `${login.pagesPath}/eid/${s.id}/start`,
        label: s.displayName(request.messages, request.locale),
        fields: {},
        data: { eid: s.id },
      })),
    });
  }

  /**
   * A scheme's page: what the scheme shows now (its start is safe to repeat: a reload shows the same). `progress` is
   * the waiting page's no-script refresh: answered as Continue is (the scheme's handle, no input), so a session the
   * phone ended (done, cancelled) ends the sign-in without a script.
   */
  async schemePage(login: LoginContext, schemeId: string, progress: boolean): Promise<LoginOutcome> {
    const scheme = this.scheme(login, schemeId);
    return this.outcomeOf(login, scheme, progress ? await scheme.handle(login.request, {}) : await scheme.start(login.request));
  }

  /** The user picked a scheme: on to its page, by GET. */
  choose(login: LoginContext, schemeId: string, form: Record<string, unknown>): LoginOutcome {
    this.checkCsrf(login, form);
    const scheme = this.scheme(login, schemeId);
    this.telemetry?.emit('loginStarted', scheme.id);
    return { kind: 'redirect', url: this.schemePath(login, scheme) };
  }

  /** A form of the scheme's page; a page to show again (a choice not understood, a phone not done yet) is shown by GET. */
  async input(login: LoginContext, schemeId: string, form: Record<string, unknown>): Promise<LoginOutcome> {
    this.checkCsrf(login, form);
    const scheme = this.scheme(login, schemeId);
    const fields = Object.fromEntries(Object.entries(form).filter(([k, v]) => k !== '_csrf' && typeof v === 'string')) as Record<string, string>;
    const step = await scheme.handle(login.request, fields);
    if (step.kind === 'choices' || step.kind === 'waiting') return { kind: 'redirect', url: this.schemePath(login, scheme) };
    // Continue on the offer page: the scheme answers the same identity again, now handed to the merchant.
    return this.outcomeOf(login, scheme, step, fields.after_offer === '1');
  }

  /**
   * Back from a redirect scheme. The state (a one-time secret the scheme handed out) must be pending for this very
   * login and scheme; it is used up before the scheme sees the answer, so a replay finds it gone.
   */
  async resume(login: LoginContext, schemeId: string, query: Record<string, string>): Promise<LoginOutcome> {
    const scheme = this.scheme(login, schemeId);
    if (!resumesRedirect(scheme)) throw schemeNotAllowed(schemeId);
    const pending = query.state ? await this.redirects.consume(query.state, login.uid, scheme.id) : undefined;
    if (!pending) throw stateRefused('the answer belongs to no sign-in in progress, or was already used');
    const step = await scheme.resume(login.request, pending, query);
    // A scheme that goes on waiting after an answer it could not take: its page again, by GET.
    if (step.kind === 'choices' || step.kind === 'waiting') return { kind: 'redirect', url: this.schemePath(login, scheme) };
    return this.outcomeOf(login, scheme, step);
  }

  cancel(login: LoginContext, form: Record<string, unknown>): LoginOutcome {
    this.checkCsrf(login, form);
    return { kind: 'failed', error: 'access_denied', description: 'the user cancelled the sign-in' };
  }

  private async outcomeOf(login: LoginContext, scheme: EidProvider, step: EidStep, offerSeen = false): Promise<LoginOutcome> {
    const { request } = login;
    switch (step.kind) {
      case 'choices':
        return this.choices(login, {
          heading: this.heading(login),
          subheading: step.title,
          intro: step.intro,
          choices: step.choices.map((c) => ({ ...c, action: `${login.pagesPath}/eid/${scheme.id}` })),
          back: this.wayBack(login),
        });
      case 'redirect':
        return { kind: 'redirect', url: step.url };
      case 'waiting':
        return {
          kind: 'page',
          html: waitingPage({
            site: this.site,
            locale: request.locale,
            messages: request.messages,
            heading: this.heading(login),
            title: step.title,
            context: login.context,
            qrSvg: step.qrSvg,
            link: step.link,
            statusUrl: step.statusUrl,
            progress: step.progress,
            texts: step.texts,
            steps: step.steps,
            alternate: step.alternate,
            app: step.app,
            copyLink: step.copyLink,
            keepHandoff: step.keepHandoff,
            notice: step.notice,
            refreshUrl: `${this.schemePath(login, scheme)}?progress`,
            continueAction: `${login.pagesPath}/eid/${scheme.id}`,
            cancelAction: `${login.pagesPath}/cancel`,
            back: this.wayBack(login),
            csrf: this.csrf.issue(login.uid),
            logo: login.logo,
          }),
        };
      case 'failed':
        this.telemetry?.emit('loginFinished', scheme.id, 'failure');
        return { kind: 'failed', error: step.error, description: step.description, reason: step.reason };
      case 'identified': {
        const offer = login.offerCredential && !offerSeen ? await this.offerMaker?.offerAfterSignIn(step.identity, request.clientId) : undefined;
        // Shown by GET (post/redirect/get): a reload shows this offer again instead of making another.
        if (offer)
          return {
            kind: 'offered',
            scheme: scheme.id,
            offer: { link: offer.link, txCode: offer.txCode, revokeUrl: offer.revokeUrl, expiresAt: offer.expiresAt },
            url: this.offerPath(login, scheme),
          };
        this.telemetry?.emit('loginFinished', scheme.id, 'success');
        return { kind: 'identified', scheme, identity: step.identity };
      }
    }
  }

  /**
   * The offer page (GET), for the offer the front door kept for this browser and login; without one (never made, or
   * expired) the scheme's page, whose Continue goes on as before.
   */
  async offerShown(login: LoginContext, schemeId: string, offer: ShownOffer | undefined): Promise<LoginOutcome> {
    const scheme = this.scheme(login, schemeId);
    if (!offer) return { kind: 'redirect', url: this.schemePath(login, scheme) };
    const qrcode = (await import('qrcode')).default;
    const qrSvg = await qrcode.toString(offer.link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 240 });
    const html = offerPage({
      site: this.site,
      locale: login.request.locale,
      heading: this.heading(login),
      merchantName: login.request.merchantName,
      offer: { ...offer, qrSvg },
      continueAction: this.schemePath(login, scheme),
      csrf: this.csrf.issue(login.uid),
      logo: login.logo,
    });
    return { kind: 'page', html };
  }

  /** Where a scheme's offer page is shown (GET). */
  private offerPath(login: LoginContext, scheme: EidProvider): string {
    return `${this.schemePath(login, scheme)}/offer`;
  }

  /** Only while the merchant allows this request another scheme: with one, the choice would lead straight back. */
  private wayBack(login: LoginContext): WayBack | undefined {
    return login.schemes.length > 1 ? { href: `${login.pagesPath}/choose`, label: login.request.messages.chooseAnother } : undefined;
  }

  private choices(login: LoginContext, page: { heading: string; subheading?: string; intro?: string; choices: ChoiceForm[]; back?: WayBack }): LoginOutcome {
    const { request } = login;
    const html = choicesPage({
      site: this.site,
      ...page,
      locale: request.locale,
      messages: request.messages,
      context: login.context,
      csrf: this.csrf.issue(login.uid),
      cancelAction: `${login.pagesPath}/cancel`,
      logo: login.logo,
    });
    return { kind: 'page', html };
  }

  private heading(login: LoginContext): string {
    return login.request.messages.signInTo.replace('{merchant}', login.request.merchantName);
  }

  private schemePath(login: LoginContext, scheme: EidProvider): string {
    return `${login.pagesPath}/eid/${encodeURIComponent(scheme.id)}`;
  }

  private scheme(login: LoginContext, id: string): EidProvider {
    const scheme = login.schemes.find((s) => s.id === id);
    if (!scheme) throw schemeNotAllowed(id);
    return scheme;
  }

  private checkCsrf(login: LoginContext, form: Record<string, unknown>): void {
    if (!this.csrf.verify(login.uid, form._csrf)) throw csrfRejected();
  }
}
