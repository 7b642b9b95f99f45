import { CAPTURE_RETRY_MESSAGES, CAPTURE_RETRY_REASONS } from './capture-retry-messages.js';
import { localeFromAcceptLanguage, pickLocale, UI_LOCALES } from './locales.js';

describe('the phone language (Accept-Language)', () => {
  it.each([
    [undefined, 'en_GB'],
    ['', 'en_GB'],
    ['nb-NO', 'nb_NO'],
    ['sv-FI', 'sv_FI'],
    ['sv', 'sv_SE'],
    ['fr-CA, de;q=0.8', 'fr_FR'],
    ['de;q=0.5, nl;q=0.9', 'nl_NL'],
    ['ja, et-EE;q=0.4', 'et_EE'],
    ['ja, zh;q=0.9', 'en_GB'],
    ['fi;q=0, lv', 'lv_LV'],
    ['*', 'en_GB'],
    ['da;q=bogus', 'da_DK'],
    ['<script>, nn', 'nn_NO'],
  ])('%j → %s', (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });

  it('reads only the first 20 entries of a long header', () => {
    expect(localeFromAcceptLanguage(`${'ja, '.repeat(20)}de`)).toBe('en_GB');
  });
});

describe('the broker page language (pickLocale)', () => {
  it.each([
    ['nn_NO', 'de-DE', 'fi', 'sv_SE', 'nn_NO'],
    ['xx_XX', 'de-DE', 'fi', 'sv_SE', 'de_DE'],
    [undefined, 'xx NB-no', 'fi', 'sv_SE', 'nb_NO'],
    [undefined, 'xx yy', 'nb-NO', 'sv_SE', 'nb_NO'],
    ['xx_XX', undefined, 'ja, *', 'sv_SE', 'sv_SE'],
    [undefined, undefined, undefined, undefined, 'en_GB'],
  ])('ui_locale %j, ui_locales %j, Accept-Language %j, merchant %j → %s', (uiLocale, uiLocales, acceptLanguage, merchant, locale) => {
    expect(pickLocale(uiLocale, uiLocales, acceptLanguage, merchant as never)).toBe(locale);
  });
});

describe('capture retry words', () => {
  it('exist for every reason in every locale, and are translated (only sv_FI shares Swedish)', () => {
    for (const locale of UI_LOCALES)
      for (const reason of CAPTURE_RETRY_REASONS) expect([locale, reason, CAPTURE_RETRY_MESSAGES[locale][reason].length > 10]).toEqual([locale, reason, true]);
    const sameAsEnglish = UI_LOCALES.filter((l) => l !== 'en_GB' && CAPTURE_RETRY_MESSAGES[l].FACE_TOO_DARK === CAPTURE_RETRY_MESSAGES.en_GB.FACE_TOO_DARK);
    expect(sameAsEnglish).toEqual([]);
  });
});
