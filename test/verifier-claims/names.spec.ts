import { holderName, isMrzNameTruncated, otherIdentifier, parseMrzName, readableName } from '../../src/verifier-claims/names.js';

const TD3_NAME = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<'.slice(5);
const TD1_NAME = 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<';

describe('parseMrzName', () => {
  it('splits primary and secondary identifier and turns filler into spaces', () => {
    expect(parseMrzName(TD3_NAME)).toEqual({ primaryIdentifier: 'ERIKSSON', secondaryIdentifier: 'ANNA MARIA' });
    expect(parseMrzName(TD1_NAME)).toEqual({ primaryIdentifier: 'ERIKSSON', secondaryIdentifier: 'ANNA MARIA' });
    expect(parseMrzName('ERIKSSON<<ANNA<MARIA')).toEqual({ primaryIdentifier: 'ERIKSSON', secondaryIdentifier: 'ANNA MARIA' });
  });

  it('keeps multi-part primary identifiers together', () => {
    expect(parseMrzName('VAN<DER<BERG<<JAN<<<<<')).toEqual({ primaryIdentifier: 'VAN DER BERG', secondaryIdentifier: 'JAN' });
  });

  it('handles a name with only a primary identifier', () => {
    expect(parseMrzName('SUKARNO<<<<<<<<<<<<<<<')).toEqual({ primaryIdentifier: 'SUKARNO', secondaryIdentifier: '' });
    expect(parseMrzName('SUKARNO')).toEqual({ primaryIdentifier: 'SUKARNO', secondaryIdentifier: '' });
  });
});

describe('isMrzNameTruncated', () => {
  it('is true only for a full-length field ending in a letter', () => {
    expect(TD3_NAME).toHaveLength(39);
    expect(isMrzNameTruncated(TD3_NAME)).toBe(false);
    expect(isMrzNameTruncated(TD1_NAME)).toBe(false);
    expect(isMrzNameTruncated('ABDULLAH<AL<RASHID<<MOHAMMED<AH')).toBe(true); // TD2, 31
    expect(isMrzNameTruncated('ABDULLAH<AL<RASHID<<MOHAMMED<A')).toBe(true); // TD1, 30
    expect(isMrzNameTruncated('ERIKSSON<<ANNA<MARIA')).toBe(false); // filler already stripped
  });
});

describe('readableName / holderName', () => {
  it('writes secondary before primary', () => {
    expect(readableName(TD3_NAME)).toBe('ANNA MARIA ERIKSSON');
    expect(readableName('SUKARNO<<<')).toBe('SUKARNO');
  });

  it('prefers the DG11 full name', () => {
    expect(holderName('MUELLER<<JUERGEN', 'MÜLLER<<JÜRGEN')).toBe('JÜRGEN MÜLLER');
    expect(holderName('MUELLER<<JUERGEN')).toBe('JUERGEN MUELLER');
    expect(holderName('MUELLER<<JUERGEN', '  ')).toBe('JUERGEN MUELLER');
  });
});

describe('otherIdentifier', () => {
  it('is absent without DG11 or when DG11 says the same as the MRZ', () => {
    expect(otherIdentifier(TD3_NAME)).toBeUndefined();
    expect(otherIdentifier(TD3_NAME, 'ERIKSSON<<ANNA<MARIA')).toBeUndefined();
    expect(otherIdentifier(TD3_NAME, 'Eriksson<<Anna Maria')).toBeUndefined();
    expect(otherIdentifier(TD3_NAME, 'Anna Maria Eriksson')).toBeUndefined();
    // a truncated MRZ cannot be completed without the chip
    expect(otherIdentifier('ABDULLAH<AL<RASHID<<MOHAMMED<A')).toBeUndefined();
  });

  it('returns the DG11 spelling when the MRZ had to transliterate diacritics', () => {
    expect(otherIdentifier('MUELLER<<JUERGEN<<<<<<<', 'MÜLLER<<JÜRGEN')).toBe('MÜLLER, JÜRGEN');
  });

  it('returns the DG11 spelling when the MRZ dropped hyphens or apostrophes', () => {
    expect(otherIdentifier('ONEILL<<ANNA<MARIA', "O'NEILL<<ANNA-MARIA")).toBe("O'NEILL, ANNA-MARIA");
  });

  it('returns the full DG11 name when the MRZ name was truncated', () => {
    expect(otherIdentifier('ABDULLAH<AL<RASHID<<MOHAMMED<A', 'ABDULLAH<AL<RASHID<<MOHAMMED<AHMED<YUSUF')).toBe('ABDULLAH AL RASHID, MOHAMMED AHMED YUSUF');
  });

  it('adds DG11 other names, in non-Latin script too, without duplicates', () => {
    expect(otherIdentifier('IVANOVA<<OLGA', 'IVANOVA<<OLGA', ['ИВАНОВА<<ОЛЬГА', 'PETROVA<<OLGA', 'ИВАНОВА<<ОЛЬГА', 'OLGA IVANOVA'])).toBe('ИВАНОВА, ОЛЬГА; PETROVA, OLGA');
    expect(otherIdentifier('IVANOVA<<OLGA', undefined, ['Olga Petrova'])).toBe('Olga Petrova');
  });
});
