import { parseBindingMessage, parseServiceContext, type BindingMessage } from '../../broker/spi/request/binding-message.js';
import type { EidRequest } from '../../broker/spi/eid-provider.js';
import { pickLocale, type UiLocale } from '../../i18n/locales.js';
import { messagesFor } from '../../i18n/messages.js';

type Params = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** The merchant's settings that schemes read. */
export interface MerchantRequestSettings {
  reusedIdentityMaxAgeDays?: number;
}

/**
 * The authorization request's parameters, read once into what schemes and pages need. The language comes
 * from the request, else from the browser showing the page (Accept-Language), else the merchant's default.
 */
export function toEidRequest(
  uid: string,
  params: Params,
  merchantName: string,
  acceptLanguage?: string,
  merchantLocale?: UiLocale,
  settings: MerchantRequestSettings = {},
): EidRequest {
  const locale = pickLocale(params.ui_locale, params.ui_locales, acceptLanguage, merchantLocale);
  const bindingMessage = str(params.binding_message);
  return {
    interactionUid: uid,
    clientId: String(params.client_id),
    merchantName,
    locale,
    messages: messagesFor(locale),
    scopes: (str(params.scope) ?? '').split(' ').filter(Boolean),
    acrValues: (str(params.acr_values) ?? '').split(' ').filter(Boolean),
    loginHint: str(params.login_hint),
    bindingMessage: bindingMessage ? parseBindingMessage(bindingMessage) : undefined,
    maxAge: maxAgeOf(params.max_age),
    ...(settings.reusedIdentityMaxAgeDays !== undefined ? { reusedIdentityMaxAgeDays: settings.reusedIdentityMaxAgeDays } : {}),
  };
}

/**
 * max_age as the engine hands it over (a number, or the query's text): read here, where the request's parameters
 * become the EidRequest every scheme sees.
 */
export function maxAgeOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** What the merchant asked us to show the user, as plain text (markdown is shown as written, never as HTML). */
export function contextTexts(params: Params, binding?: BindingMessage): string[] {
  const texts: string[] = [];
  if (binding?.text) texts.push(binding.text);
  if (binding?.transactionText) texts.push(binding.transactionText.content);
  const svc = str(params.svc_context);
  if (svc) texts.push(parseServiceContext(svc));
  return texts;
}

/**
 * Claim names requested through the `claims` parameter that the granted scopes allow (spec 5.9: scope
 * gates claims, so `claims` can narrow or pick, never reach past the scopes, e.g. personal_number needs ssn).
 */
export function splitClaimsByScope(claims: string[], scopes: string[], claimsByScope: Record<string, string[]>): { consented: string[]; rejected: string[] } {
  const allowed = new Set(scopes.flatMap((s) => claimsByScope[s] ?? []));
  return { consented: claims.filter((c) => allowed.has(c)), rejected: claims.filter((c) => !allowed.has(c)) };
}

/** Claim names requested through the `claims` parameter. */
export function requestedClaimNames(params: Params): string[] {
  const raw = str(params.claims);
  if (!raw) return [];
  try {
    const parsed = JSON.parse(raw) as { id_token?: object; userinfo?: object };
    return [...Object.keys(parsed.id_token ?? {}), ...Object.keys(parsed.userinfo ?? {})];
  } catch {
    return [];
  }
}
