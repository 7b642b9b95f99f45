import { UI_LOCALES } from '../../src/i18n/locales.js';

/** A table of page texts has every key of en_GB in every locale, none blank, each translated (only sv_FI shares Swedish). */
export function expectEveryLocale(table: Record<string, Record<string, string>>): void {
  const keys = Object.keys(table.en_GB);
  for (const locale of UI_LOCALES) {
    expect(Object.keys(table[locale]).sort()).toEqual([...keys].sort());
    for (const key of keys) expect(table[locale][key].trim()).not.toBe('');
    if (locale !== 'en_GB') expect(table[locale]).not.toEqual(table.en_GB);
  }
}
