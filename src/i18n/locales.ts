/** ui_locale values of spec 2.9; en_GB is the fallback. */
export const UI_LOCALES = ['nb_NO', 'en_GB', 'da_DK', 'sv_SE', 'fi_FI', 'sv_FI', 'nn_NO', 'et_EE', 'lv_LV', 'de_DE', 'nl_NL', 'fr_FR'] as const;
export type UiLocale = (typeof UI_LOCALES)[number];
export const DEFAULT_LOCALE: UiLocale = 'en_GB';

export function isUiLocale(value: unknown): value is UiLocale {
  return typeof value === 'string' && (UI_LOCALES as readonly string[]).includes(value);
}

/**
 * Picks the page language, first usable of: the spec's `ui_locale`; the standard `ui_locales` (BCP 47,
 * e.g. `nb-NO nn`); the browser's Accept-Language; the merchant's default; en_GB. An unknown value at
 * any step is passed over, never refused: a person should not lose a login over a language tag.
 */
export function pickLocale(uiLocale?: unknown, uiLocales?: unknown, acceptLanguage?: unknown, fallback: UiLocale = DEFAULT_LOCALE): UiLocale {
  if (isUiLocale(uiLocale)) return uiLocale;
  if (typeof uiLocales === 'string') {
    for (const tag of uiLocales.split(' ').slice(0, 20)) {
      const found = matchTag(tag);
      if (found) return found;
    }
  }
  return (typeof acceptLanguage === 'string' && matchAcceptLanguage(acceptLanguage)) || fallback;
}

/** One BCP 47 tag (`nb-NO`, `nb_NO`, `sv`) to a ui_locale: exact, else the first locale of its language. */
function matchTag(tag: string): UiLocale | undefined {
  const [language, region] = tag.trim().toLowerCase().split(/[-_]/);
  if (!language) return undefined;
  const exact = UI_LOCALES.find((l) => l.toLowerCase() === `${language}_${region}`);
  return exact ?? UI_LOCALES.find((l) => l.startsWith(`${language}_`));
}

/** The HTML lang attribute (BCP 47). */
export function htmlLang(locale: UiLocale): string {
  return locale.replace('_', '-');
}

/**
 * The locale for an HTTP Accept-Language header (RFC 9110 §12.5.4): entries by descending q, each matched
 * exactly (`nb-NO`) or by language (`nb`, `sv` → sv_SE); `*`, q=0 and unknown languages are skipped; en_GB
 * when nothing matches. The phone's app API uses it: the phone's language is the one its user reads.
 */
export function localeFromAcceptLanguage(header: string | undefined): UiLocale {
  return (header && matchAcceptLanguage(header)) || DEFAULT_LOCALE;
}

function matchAcceptLanguage(header: string): UiLocale | undefined {
  const ranked = header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/i.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.q > 0 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(r.tag))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const found = matchTag(tag);
    if (found) return found;
  }
  return undefined;
}
