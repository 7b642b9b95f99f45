import { extensionPoint } from '../../common/discovery/discovered.js';
import type { UiLocale } from '../../i18n/locales.js';
import type { Messages } from '../../i18n/messages.js';
import type { WaitingTexts } from '../../i18n/waiting-messages.js';
import type { IdentityVerification } from './identity-assurance/identity-verification.js';
import type { BindingMessage } from './request/binding-message.js';

/**
 * What a scheme hands back when the user is identified (Keycloak's BrokeredIdentityContext, typed):
 * a stable subject, the claims it can vouch for (spec 2.1 / 2.4 names), the assurance reached, and a
 * reference to the evidence it kept (for auth-files).
 */
export interface BrokeredIdentity {
  /** Stable per person within the scheme; becomes `sub` (or the input of a pairwise `sub`). */
  subject: string;
  claims: Record<string, unknown>;
  /** ISO date of birth when known, for age checks (`ageverifyNN`) independent of the claim's display format. */
  birthDate?: string;
  acr?: string;
  amr: string[];
  authTime: Date;
  evidenceRef?: string;
  /**
   * Where the identity came from, for merchants to tell schemes apart (released as `eid_issuer`);
   * set by brokering schemes (upstream OpenID Connect), absent for our own.
   */
  upstreamIssuer?: string;
  /** How the person was verified, for `verified_claims` (OpenID Connect for Identity Assurance); absent: none is offered. */
  verification?: IdentityVerification;
}

/** The authorization request as a scheme sees it; no oidc-provider types leak into schemes. */
export interface EidRequest {
  interactionUid: string;
  clientId: string;
  merchantName: string;
  locale: UiLocale;
  messages: Messages;
  scopes: string[];
  acrValues: string[];
  loginHint?: string;
  bindingMessage?: BindingMessage;
  /** The merchant's max_age (seconds): a brokering scheme passes it on and never dates a login older. */
  maxAge?: number;
  /**
   * The merchant's reused_identity_max_age_days: how old (days since its document verification) the service's own
   * reusable credential may be and still earn acr high. Absent where no merchant setting reaches (CIBA): the default.
   */
  reusedIdentityMaxAgeDays?: number;
}

export interface EidChoice {
  label: string;
  detail?: string;
  /** Form fields posted back to the scheme's `handle`. */
  fields: Record<string, string>;
  /** data-* attributes for automated browsers and tests, e.g. `{ person: 'uto-td3' }`. */
  data: Record<string, string>;
}

/**
 * How far the other device has got, for the waiting page and its status route (never personal data): `waiting`
 * (nobody has opened the link yet), then the id of each of the scheme's own steps as it is done (WaitingStep, in the
 * scheme's order), `done`, or `stopped` (cancelled, expired).
 */
export type ProgressStep = 'waiting' | 'done' | 'stopped' | (string & NonNullable<unknown>);

/** A step the scheme reports between `waiting` and `done` (say "Phone connected"), named in the request's locale. */
export interface WaitingStep {
  id: string;
  label: string;
  /** News on another device only: hidden when the page is on the phone that did it (it opened the app itself). */
  onDesktopOnly?: boolean;
}

/** An app named on a waiting page: its product name and where to get it (store pages, by store name). */
export interface HandoffApp {
  name: string;
  storeLinks: { store: string; href: string }[];
}

/**
 * A notice on a waiting page: the page shows `text` and a `retry` button; `key` changes with each new notice, and the
 * status route reports the current key so that the page shows a newer one (it reloads when they differ).
 */
export interface WaitingNotice {
  key: string;
  text: string;
  retry: string;
}

/** What the scheme wants shown or done next. */
export type EidStep =
  | { kind: 'choices'; title: string; intro?: string; choices: EidChoice[] }
  | { kind: 'redirect'; url: string }
  /** Waiting for another device: a QR code and link to it, a status URL the page watches, a continue button. */
  | {
      kind: 'waiting';
      title: string;
      qrSvg: string;
      link: string;
      statusUrl: string;
      state: string;
      progress: ProgressStep;
      /** The scheme's own hand-off texts (default: the ID app's). */
      texts?: WaitingTexts;
      /** The steps it reports before `done`, in order; the page lists them, then `done`. */
      steps: WaitingStep[];
      /** A second way to open the other app on this device (another link scheme), under the main button. */
      alternate?: { label: string; href: string };
      /** The app the default texts name (`{app}`), with its store pages for a person who has not got it. */
      app?: HandoffApp;
      /** The link offered to copy, for another device (default `link`). */
      copyLink?: string;
      /** Keep the QR code and link shown after a device connected (a scheme whose request any device may fetch). */
      keepHandoff?: boolean;
      /** What the person should know, with a way to start over (posted to `handle` as `action=retry`). */
      notice?: WaitingNotice;
    }
  | { kind: 'identified'; identity: BrokeredIdentity }
  /**
   * `reason` tells the user what happened on a page of ours before the merchant hears of it (a user
   * coming back from another site would otherwise land on the merchant without a word).
   */
  | { kind: 'failed'; error: 'access_denied' | 'login_required' | 'temporarily_unavailable'; description: string; reason?: 'cancelled' | 'upstream_error' };

/**
 * The small interface every eID scheme implements. `start` runs when the user picks the scheme;
 * `handle` receives the scheme's own form posts (already CSRF-checked by the broker).
 */
export interface EidProvider {
  readonly id: string;
  /** Only for customer-test: the registry refuses such a scheme in production. */
  readonly testOnly: boolean;
  displayName(messages: Messages, locale?: UiLocale): string;
  start(request: EidRequest): Promise<EidStep>;
  handle(request: EidRequest, input: Record<string, string>): Promise<EidStep>;
}

/** Opt-in capability: the scheme can say whether it can reach a requested acr before it starts. */
export interface SupportsAcr {
  supportsAcr(acr: string): boolean;
}

export function supportsAcr(p: EidProvider): p is EidProvider & SupportsAcr {
  return typeof (p as Partial<SupportsAcr>).supportsAcr === 'function';
}

/**
 * Opt-in capability of schemes that send the browser elsewhere (a `redirect` step) and get it back at the
 * broker's one callback, `GET /its/eid/callback`. The broker binds the `state` it hands out to the
 * interaction and the scheme, keeps it single use, and gives the scheme back the data it stored with it.
 */
export interface ResumesRedirect {
  resume(request: EidRequest, pending: Record<string, unknown>, query: Record<string, string>): Promise<EidStep>;
}

export function resumesRedirect(p: EidProvider): p is EidProvider & ResumesRedirect {
  return typeof (p as Partial<ResumesRedirect>).resume === 'function';
}

/**
 * Schemes that are data rather than code (configured through the admin API): the registry asks a source
 * again before each use so that a change made on another instance is seen (the source decides how long it
 * may cache).
 */
export interface EidSchemeSource {
  schemes(): Promise<EidProvider[]>;
}

/**
 * Marks a provider that is an eID scheme (code); the registry collects every one of them at start. `order` places
 * it among the built-in schemes on the choice page (lowest first; the first takes the focus).
 */
export const EidScheme = extensionPoint<{ order: number }>();

/** Marks a provider that is a source of schemes that are data (EidSchemeSource). */
export const EidSchemeSourceProvider = extensionPoint();

/**
 * What a scheme may ask of the registry (the broker core provides it): the built-in schemes, e.g. so that the
 * admin API of upstream schemes refuses an id a built-in one has. Schemes depend on this, never on the core.
 */
export abstract class SchemeCatalog {
  abstract builtInIds(): string[];
  abstract get(id: string): EidProvider | undefined;
}
