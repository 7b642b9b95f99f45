import type { UiLocale } from '../i18n/locales.js';
import type { Messages } from '../i18n/messages.js';
import type { BindingMessage } from './binding-message.js';

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
 * How far the other device has got, for the waiting page and its status route (never personal data):
 * waiting (nobody has opened the link yet), then each step done, or stopped (cancelled, expired).
 */
export const PROGRESS_STEPS = ['waiting', 'phone_connected', 'document_read', 'face_checked', 'done'] as const;
export type ProgressStep = (typeof PROGRESS_STEPS)[number] | 'stopped';

/** What the scheme wants shown or done next. */
export type EidStep =
  | { kind: 'choices'; title: string; intro?: string; choices: EidChoice[] }
  | { kind: 'redirect'; url: string }
  /** Waiting for another device: a QR code and link to it, a status URL the page watches, a continue button. */
  | { kind: 'waiting'; title: string; instructions: string; qrSvg: string; link: string; statusUrl: string; state: string; progress: ProgressStep }
  | { kind: 'identified'; identity: BrokeredIdentity }
  | { kind: 'failed'; error: 'access_denied' | 'login_required' | 'temporarily_unavailable'; description: string };

/**
 * The small interface every eID scheme implements. `start` runs when the user picks the scheme;
 * `handle` receives the scheme's own form posts (already CSRF-checked by the broker).
 */
export interface EidProvider {
  readonly id: string;
  /** Only for customer-test: the registry refuses such a scheme in production. */
  readonly testOnly: boolean;
  displayName(messages: Messages): string;
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

export const EID_PROVIDERS = Symbol('EID_PROVIDERS');
