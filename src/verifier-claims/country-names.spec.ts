import { ICAO_SPECIAL_CODES, LEGACY_CODES, countryName, countryNameIn, knownCountryCodes } from './country-names.js';

describe('countryName', () => {
  it('names ISO 3166-1 alpha-3 codes through ICU', () => {
    expect(countryName('DEU')).toBe('Germany');
    expect(countryName('NOR')).toBe('Norway');
    expect(countryName('GBR')).toBe('United Kingdom');
    expect(countryName('USA')).toBe('United States');
    expect(countryName('SWE')).toBe('Sweden');
    expect(countryName('NLD')).toBe('Netherlands');
    expect(countryName('KOR')).toBe('South Korea');
    expect(countryName('PRK')).toBe('North Korea');
  });

  it('rewrites the menu-style CLDR names into running-text names', () => {
    expect(countryName('COD')).toBe('Democratic Republic of the Congo');
    expect(countryName('COG')).toBe('Republic of the Congo');
    expect(countryName('BIH')).toBe('Bosnia and Herzegovina');
    expect(countryName('TTO')).toBe('Trinidad and Tobago');
  });

  it('names all 249 ISO codes, each with a real name (not the code) and no two alike', () => {
    const iso = knownCountryCodes().filter((c) => !(c in ICAO_SPECIAL_CODES) && !(c in LEGACY_CODES));
    expect(iso).toHaveLength(249);
    const names = iso.map((c) => countryName(c));
    for (const [i, name] of names.entries()) {
      expect(name).toBeDefined();
      expect(name!.length).toBeGreaterThan(3);
      expect(name).not.toBe(iso[i]);
      expect(name).not.toMatch(/&| - /);
    }
    expect(new Set(names).size).toBe(249);
  });

  it.each([
    ['D', 'Germany'],
    ['GBD', 'British Overseas Territories Citizen'],
    ['GBN', 'British National (Overseas)'],
    ['GBO', 'British Overseas Citizen'],
    ['GBP', 'British Protected Person'],
    ['GBS', 'British Subject'],
    ['UNO', 'United Nations Organization'],
    ['UNA', 'United Nations Specialized Agency'],
    ['UNK', 'United Nations Interim Administration Mission in Kosovo'],
    ['XBA', 'African Development Bank'],
    ['XIM', 'African Export-Import Bank'],
    ['XCC', 'Caribbean Community'],
    ['XCE', 'Council of Europe'],
    ['XCO', 'Common Market for Eastern and Southern Africa'],
    ['XDC', 'Southern African Development Community'],
    ['XEC', 'Economic Community of West African States'],
    ['XES', 'Organisation of Eastern Caribbean States'],
    ['XMP', 'Parliamentary Assembly of the Mediterranean'],
    ['XOM', 'Sovereign Military Order of Malta'],
    ['XPO', 'International Criminal Police Organization (INTERPOL)'],
    ['XXA', 'Stateless person'],
    ['XXB', 'Refugee (1951 Convention)'],
    ['XXC', 'Refugee (other)'],
    ['XXX', 'Unspecified nationality'],
    ['EUE', 'European Union'],
    ['RKS', 'Kosovo'],
    ['YUG', 'Yugoslavia'],
    ['SCG', 'Serbia and Montenegro'],
    ['ANT', 'Netherlands Antilles'],
  ])('names the ICAO code %s', (code, name) => {
    expect(countryName(code)).toBe(name);
  });

  it('covers every special code in the table (the list above is complete)', () => {
    expect(Object.keys(ICAO_SPECIAL_CODES).sort()).toEqual(
      [
        'D',
        'EUE',
        'RKS',
        'GBD',
        'GBN',
        'GBO',
        'GBP',
        'GBS',
        'UNO',
        'UNA',
        'UNK',
        'XBA',
        'XIM',
        'XCC',
        'XCE',
        'XCO',
        'XDC',
        'XEC',
        'XES',
        'XMP',
        'XOM',
        'XPO',
        'XXA',
        'XXB',
        'XXC',
        'XXX',
      ].sort(),
    );
  });

  it('accepts MRZ filler padding and any case', () => {
    expect(countryName('D<<')).toBe('Germany');
    expect(countryName('<D<')).toBe('Germany');
    expect(countryName('deu')).toBe('Germany');
    expect(countryName('XXA')).toBe(countryName('XXA<'));
  });

  it('returns undefined for unknown codes, including the ICAO specimen state Utopia', () => {
    expect(countryName('UTO')).toBeUndefined();
    expect(countryName('ZZZ')).toBeUndefined();
    expect(countryName('DE')).toBeUndefined();
    expect(countryName('')).toBeUndefined();
    expect(countryName('<<<')).toBeUndefined();
  });
});

describe('countryNameIn (the evidence report, in its locale)', () => {
  it('names a state in the locale, ICAO’s D included, and keeps the English name for English', () => {
    expect(['nb-NO', 'nn-NO', 'da-DK', 'sv-SE', 'fi-FI'].map((l) => countryNameIn('NOR', l))).toEqual(['Norge', 'Noreg', 'Norge', 'Norge', 'Norja']);
    expect(countryNameIn('D<<', 'fi-FI')).toBe('Saksa');
    expect(countryNameIn('COD', 'en-GB')).toBe(countryName('COD'));
  });

  it('gives ICAO’s own and withdrawn codes their English name, and nothing for Utopia or an unknown code', () => {
    expect([countryNameIn('XXA', 'nb-NO'), countryNameIn('YUG', 'sv-SE')]).toEqual(['Stateless person', 'Yugoslavia']);
    expect([countryNameIn('UTO', 'nb-NO'), countryNameIn('QQQ', 'da-DK')]).toEqual([undefined, undefined]);
  });
});
