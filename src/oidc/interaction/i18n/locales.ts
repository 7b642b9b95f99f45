/** ui_locale values of spec 2.9; en_GB is the fallback. */
export const UI_LOCALES = ['nb_NO', 'en_GB', 'da_DK', 'sv_SE', 'fi_FI', 'sv_FI', 'nn_NO', 'et_EE', 'lv_LV', 'de_DE', 'nl_NL', 'fr_FR'] as const;
export type UiLocale = (typeof UI_LOCALES)[number];
export const DEFAULT_LOCALE: UiLocale = 'en_GB';

export function isUiLocale(value: unknown): value is UiLocale {
  return typeof value === 'string' && (UI_LOCALES as readonly string[]).includes(value);
}

/**
 * Picks the page language: the spec's `ui_locale`, else the first usable entry of the standard
 * `ui_locales` (BCP 47, e.g. `nb-NO nn`), else en_GB.
 */
export function pickLocale(uiLocale?: unknown, uiLocales?: unknown): UiLocale {
  if (isUiLocale(uiLocale)) return uiLocale;
  if (typeof uiLocales === 'string') {
    for (const tag of uiLocales.split(' ')) {
      const normalised = tag.replace('-', '_');
      if (isUiLocale(normalised)) return normalised;
      const byLanguage = UI_LOCALES.find((l) => l.startsWith(`${normalised.split('_')[0]}_`));
      if (byLanguage) return byLanguage;
    }
  }
  return DEFAULT_LOCALE;
}

/** The HTML lang attribute (BCP 47). */
export function htmlLang(locale: UiLocale): string {
  return locale.replace('_', '-');
}
