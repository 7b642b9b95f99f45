import { expectEveryLocale } from '../../../test/support/every-locale.js';
import { localDate, TEST_EID_MESSAGES } from './test-eid-messages.js';

describe('the test eID page texts', () => {
  it('has the test identity labels in every locale, translated', () => {
    expectEveryLocale(TEST_EID_MESSAGES as unknown as Record<string, Record<string, string>>);
  });

  it('writes dates in the locale convention, at the precision known', () => {
    expect(localDate('nb_NO', '1974-08-12')).toBe('12. august 1974');
    expect(localDate('en_GB', '1974-08-12')).toBe('12 August 1974');
    expect(localDate('de_DE', '1974-08')).toBe('August 1974');
    expect(localDate('fr_FR', '1974')).toBe('1974');
  });
});
