import { CAPTURE_RETRY_MESSAGES, CAPTURE_RETRY_REASONS } from '../../src/i18n/capture-retry-messages.js';
import { localeFromAcceptLanguage, UI_LOCALES } from '../../src/i18n/locales.js';

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

describe('capture retry words', () => {
  it('exist for every reason in every locale, and are translated (only sv_FI shares Swedish)', () => {
    for (const locale of UI_LOCALES)
      for (const reason of CAPTURE_RETRY_REASONS) expect([locale, reason, CAPTURE_RETRY_MESSAGES[locale][reason].length > 10]).toEqual([locale, reason, true]);
    const sameAsEnglish = UI_LOCALES.filter((l) => l !== 'en_GB' && CAPTURE_RETRY_MESSAGES[l].FACE_TOO_DARK === CAPTURE_RETRY_MESSAGES.en_GB.FACE_TOO_DARK);
    expect(sameAsEnglish).toEqual([]);
  });
});
