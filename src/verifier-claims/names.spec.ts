import { displayNames, holderNames, isMrzNameTruncated, namePartsOf, otherIdentifier, parseMrzName, personCase, readableName } from './names.js';

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

describe('readableName', () => {
  it('writes secondary before primary', () => {
    expect(readableName(TD3_NAME)).toBe('ANNA MARIA ERIKSSON');
    expect(readableName('SUKARNO<<<')).toBe('SUKARNO');
  });
});

describe('holderNames: name, given_name and family_name from one source', () => {
  const agree = (n: { name: string; givenName: string; familyName: string }) => expect(n.name).toBe([n.givenName, n.familyName].filter(Boolean).join(' '));

  it('takes all three from DG11 when its full name divides at <<, diacritics included', () => {
    const n = holderNames('NORDMANN<<KAARE<<<<<<<<<<<<<<<<<<<<<<<<', 'NORDMANN<<KÅRE');
    expect(n).toEqual({ name: 'KÅRE NORDMANN', givenName: 'KÅRE', familyName: 'NORDMANN' });
    expect(holderNames('MUELLER<<JUERGEN', 'MÜLLER<<JÜRGEN')).toEqual({ name: 'JÜRGEN MÜLLER', givenName: 'JÜRGEN', familyName: 'MÜLLER' });
    agree(n);
  });

  it('takes the fuller DG11 name when the MRZ was truncated', () => {
    const n = holderNames('ABDULLAH<AL<RASHID<<MOHAMMED<A', 'ABDULLAH<AL<RASHID<<MOHAMMED<AHMED<YUSUF');
    expect(n).toEqual({ name: 'MOHAMMED AHMED YUSUF ABDULLAH AL RASHID', givenName: 'MOHAMMED AHMED YUSUF', familyName: 'ABDULLAH AL RASHID' });
  });

  it('falls back to the MRZ for all three without DG11 or when DG11 cannot be divided safely', () => {
    const mrz = { name: 'JUERGEN MUELLER', givenName: 'JUERGEN', familyName: 'MUELLER' };
    expect(holderNames('MUELLER<<JUERGEN')).toEqual(mrz);
    expect(holderNames('MUELLER<<JUERGEN', '  ')).toEqual(mrz);
    expect(holderNames('MUELLER<<JUERGEN', 'JÜRGEN MÜLLER')).toEqual(mrz); // no '<<': where would the given names end?
    expect(holderNames('MUELLER<<JUERGEN', 'MÜLLER<<')).toEqual(mrz); // DG11 lost the given name
    expect(holderNames('MUELLER<<JUERGEN', '<<JÜRGEN')).toEqual(mrz);
  });

  it('takes a DG11 mononym when the MRZ has no secondary identifier either', () => {
    expect(holderNames('SUKARNO<<<<<<<<<<', 'SUKARNŌ')).toEqual({ name: 'SUKARNŌ', givenName: '', familyName: 'SUKARNŌ' });
  });
});

describe('namePartsOf: given/family name out of a readable name and the MRZ identifiers', () => {
  it('divides where the primary identifier ends the name, or the secondary starts it, taking both parts from the name', () => {
    expect(namePartsOf('KÅRE NORDMANN', 'NORDMANN', 'KAARE')).toEqual({ givenName: 'KÅRE', familyName: 'NORDMANN' });
    expect(namePartsOf('ANNA MARIA ERIKSSON', 'ERIKSSON', 'ANNA MARIA')).toEqual({ givenName: 'ANNA MARIA', familyName: 'ERIKSSON' });
    expect(namePartsOf('JOHN ÖSTERGÅRD', 'OESTERGAARD', 'JOHN')).toEqual({ givenName: 'JOHN', familyName: 'ÖSTERGÅRD' });
    expect(namePartsOf('Kåre Nordmann', 'NORDMANN', 'KAARE')).toEqual({ givenName: 'Kåre', familyName: 'Nordmann' });
    expect(namePartsOf('SUKARNO', 'SUKARNO')).toEqual({ givenName: '', familyName: 'SUKARNO' });
  });

  it('gives nothing rather than a guess when neither identifier matches', () => {
    expect(namePartsOf('JÜRGEN MÜLLER', 'MUELLER', 'JUERGEN')).toBeUndefined();
    expect(namePartsOf('KÅRE NORDMANN')).toBeUndefined();
    expect(namePartsOf('', 'NORDMANN', 'KAARE')).toBeUndefined();
  });
});

describe('personCase: the case a person writes a name in', () => {
  it('capitalises each word and after a hyphen or apostrophe', () => {
    expect(personCase('KÅRE NORDMANN')).toBe('Kåre Nordmann');
    expect(personCase('ANNA-MARIA')).toBe('Anna-Maria');
    expect(personCase("O'BRIEN")).toBe("O'Brien");
    expect(personCase('D’ARTAGNAN')).toBe('D’Artagnan');
    expect(personCase('JÜRGEN MÜLLER')).toBe('Jürgen Müller');
  });

  it('has the documented limits', () => {
    expect(personCase('MCDONALD')).toBe('Mcdonald');
    expect(personCase('VAN DER BERG')).toBe('Van Der Berg');
    expect(personCase('IŞIK')).toBe('Işik');
  });

  it('handles ß, the Turkish dotted İ and Greek final sigma without a locale', () => {
    expect(personCase('GROß')).toBe('Groß');
    expect(personCase('GROẞ')).toBe('Groß');
    expect(personCase('ßTEST')).toBe('Sstest');
    expect(personCase('İSMAİL YILDIZ')).toBe('İsmail Yildiz');
    expect(personCase('İSMAİL')).not.toContain('\u0307'); // no combining dot left on the lower-case i
    expect(personCase('ΟΔΥΣΣΕΑΣ')).toBe('Οδυσσεα\u03c2'); // final sigma
    expect(personCase('ИВАНОВА')).toBe('Иванова');
    expect(personCase('ǄEMAL')).toBe('ǅemal');
  });

  it('leaves scripts without case as they are', () => {
    expect(personCase('محمد')).toBe('محمد');
  });
});

describe('displayNames', () => {
  it('gives the three display claims, agreeing, and none for an empty part', () => {
    expect(displayNames({ name: 'KÅRE NORDMANN', givenName: 'KÅRE', familyName: 'NORDMANN' })).toEqual({
      display_name: 'Kåre Nordmann',
      display_given_name: 'Kåre',
      display_family_name: 'Nordmann',
    });
    expect(displayNames({ name: 'SUKARNO', givenName: '', familyName: 'SUKARNO' })).toEqual({ display_name: 'Sukarno', display_family_name: 'Sukarno' });
  });

  it('keeps a name that is already in mixed case as written (a capital-only ß does not count as mixed)', () => {
    expect(displayNames({ name: 'Erika van der Berg', givenName: 'Erika', familyName: 'van der Berg' })).toEqual({
      display_name: 'Erika van der Berg',
      display_given_name: 'Erika',
      display_family_name: 'van der Berg',
    });
    expect(displayNames({ name: 'HANS GROß', givenName: 'HANS', familyName: 'GROß' }).display_name).toBe('Hans Groß');
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
    expect(otherIdentifier('IVANOVA<<OLGA', 'IVANOVA<<OLGA', ['ИВАНОВА<<ОЛЬГА', 'PETROVA<<OLGA', 'ИВАНОВА<<ОЛЬГА', 'OLGA IVANOVA'])).toBe(
      'ИВАНОВА, ОЛЬГА; PETROVA, OLGA',
    );
    expect(otherIdentifier('IVANOVA<<OLGA', undefined, ['Olga Petrova'])).toBe('Olga Petrova');
  });
});
