import { CREDENTIAL_REVOCATION_MESSAGES } from '../../src/i18n/credential-revocation-messages.js';
import { ERROR_MESSAGES } from '../../src/i18n/error-messages.js';
import { LANDING_MESSAGES } from '../../src/i18n/landing-messages.js';
import { UI_LOCALES } from '../../src/i18n/locales.js';
import { localDate, TEST_EID_MESSAGES } from '../../src/schemes/test-eid/test-eid-messages.js';
import { SAML_POST_MESSAGES } from '../../src/i18n/saml-post-messages.js';
import { WAITING_MESSAGES } from '../../src/i18n/waiting-messages.js';
import { VERIFIER_STEP_NAMES } from '../../src/schemes/document-verifier/scheme/progress-steps.js';

/** Every broker page string exists in every locale and is translated (only sv_FI shares Swedish). */
describe('broker page texts', () => {
  it.each([
    ['error sentences', ERROR_MESSAGES],
    ['test identity labels', TEST_EID_MESSAGES],
    ['verifier waiting page', WAITING_MESSAGES],
    ["the verifier's steps on its waiting page", VERIFIER_STEP_NAMES],
    ['SAML post page', SAML_POST_MESSAGES],
    ['credential revocation pages', CREDENTIAL_REVOCATION_MESSAGES],
    ['the base URL page', LANDING_MESSAGES],
  ] as unknown as [string, Record<string, Record<string, string>>][])('%s', (_name, table) => {
    const keys = Object.keys(table.en_GB);
    for (const locale of UI_LOCALES) {
      expect(Object.keys(table[locale]).sort()).toEqual([...keys].sort());
      for (const key of keys) expect(table[locale][key].trim()).not.toBe('');
      if (locale !== 'en_GB') expect(table[locale]).not.toEqual(table.en_GB);
    }
  });

  it('writes dates in the locale convention, at the precision known', () => {
    expect(localDate('nb_NO', '1974-08-12')).toBe('12. august 1974');
    expect(localDate('en_GB', '1974-08-12')).toBe('12 August 1974');
    expect(localDate('de_DE', '1974-08')).toBe('August 1974');
    expect(localDate('fr_FR', '1974')).toBe('1974');
  });
});
