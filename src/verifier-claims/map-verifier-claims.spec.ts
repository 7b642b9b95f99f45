import { mapVerifierClaims, type DocumentHolderData, type VerificationOutcome } from './map-verifier-claims.js';
import { PASS, SPECIMEN_ID_CARD, SPECIMEN_PASSPORT } from '../../test/support/mrz-documents.js';

const now = new Date('2026-11-22T12:00:00Z');

describe('mapVerifierClaims: ICAO 9303 specimens', () => {
  it('maps the TD3 specimen passport to every claim with a value, in spec formats', () => {
    expect(mapVerifierClaims(SPECIMEN_PASSPORT, PASS, now)).toEqual({
      document_type: 'PASSPORT',
      issuing_country: 'UTO',
      document_number: 'L898902C3',
      primary_identifier: 'ERIKSSON',
      secondary_identifier: 'ANNA MARIA',
      nationality: 'UTO',
      birthdate: '12.08.1974',
      personal_number: 'ZE184226B',
      gender: 'FEMALE',
      date_of_expiry: '15.04.2012',
      name: 'ANNA MARIA ERIKSSON',
      facematch_level: 8,
      auth_files_url: 'https://broker.example/auth_files/fetch.html?id=abc',
      authentication_sources: ['SDK_NFC', 'SDK_FACESCAN'],
      authentication_result: 'pass',
      given_name: 'ANNA MARIA',
      family_name: 'ERIKSSON',
      display_name: 'Anna Maria Eriksson',
      display_given_name: 'Anna Maria',
      display_family_name: 'Eriksson',
    });
  });

  it('maps the TD1 specimen ID card (no personal number: its optional data is empty)', () => {
    const claims = mapVerifierClaims(SPECIMEN_ID_CARD, PASS, now);
    expect(claims).toMatchObject({
      document_type: 'ID_CARD',
      issuing_country: 'UTO',
      document_number: 'D23145890',
      primary_identifier: 'ERIKSSON',
      secondary_identifier: 'ANNA MARIA',
      birthdate: '12.08.1974',
      gender: 'FEMALE',
      date_of_expiry: '15.04.2012',
      name: 'ANNA MARIA ERIKSSON',
    });
    expect(claims).not.toHaveProperty('personal_number');
    expect(claims).not.toHaveProperty('other_identifier');
    expect(claims).not.toHaveProperty('acr');
  });
});

describe('mapVerifierClaims: countries', () => {
  it("names Germany's one-letter code, with or without filler", () => {
    const german: DocumentHolderData = { ...SPECIMEN_PASSPORT, issuingState: 'D<<', nationality: 'D<<', mrzName: 'MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<<<' };
    expect(mapVerifierClaims(german, PASS, now)).toMatchObject({
      issuing_country: 'D',
      interpreted_issuing_country: 'Germany',
      nationality: 'D',
      interpreted_nationality: 'Germany',
    });
  });

  it('interprets issuing state and nationality separately and omits unknown ones', () => {
    const refugee = { ...SPECIMEN_PASSPORT, issuingState: 'NOR', nationality: 'XXB' };
    const claims = mapVerifierClaims(refugee, PASS, now);
    expect(claims.interpreted_issuing_country).toBe('Norway');
    expect(claims.interpreted_nationality).toBe('Refugee (1951 Convention)');
    expect(mapVerifierClaims({ ...SPECIMEN_PASSPORT, nationality: 'QQQ' }, PASS, now)).not.toHaveProperty('interpreted_nationality');
  });
});

describe('mapVerifierClaims: names', () => {
  const NAME_CLAIMS = ['name', 'given_name', 'family_name', 'display_name', 'display_given_name', 'display_family_name'];
  const namesOf = (holder: DocumentHolderData) => {
    const claims = mapVerifierClaims(holder, PASS, now);
    return Object.fromEntries(Object.entries(claims).filter(([k]) => NAME_CLAIMS.includes(k) || k.endsWith('_identifier')));
  };
  /** name is given_name then family_name, in both cases: the claims agree with each other. */
  const expectAgreement = (claims: Record<string, unknown>) => {
    expect(claims.name).toBe([claims.given_name, claims.family_name].filter(Boolean).join(' '));
    expect(claims.display_name).toBe([claims.display_given_name, claims.display_family_name].filter(Boolean).join(' '));
  };

  it('KÅRE NORDMANN: given, family and full name from DG11 with the diacritic, the MRZ form in the identifiers', () => {
    const holder: DocumentHolderData = {
      ...SPECIMEN_PASSPORT,
      issuingState: 'NOR',
      nationality: 'NOR',
      mrzName: 'NORDMANN<<KAARE<<<<<<<<<<<<<<<<<<<<<<<<',
      dg11: { fullName: 'NORDMANN<<KÅRE' },
    };
    const claims = namesOf(holder);
    expect(claims).toEqual({
      primary_identifier: 'NORDMANN',
      secondary_identifier: 'KAARE',
      name: 'KÅRE NORDMANN',
      given_name: 'KÅRE',
      family_name: 'NORDMANN',
      display_name: 'Kåre Nordmann',
      display_given_name: 'Kåre',
      display_family_name: 'Nordmann',
      other_identifier: 'NORDMANN, KÅRE',
    });
    expectAgreement(claims);
  });

  it('MÜLLER: keeps the MRZ identifiers (MUELLER), names from DG11, and reports the DG11 spelling as other_identifier', () => {
    const holder: DocumentHolderData = {
      ...SPECIMEN_PASSPORT,
      issuingState: 'D<<',
      nationality: 'D<<',
      mrzName: 'MUELLER<<JUERGEN<<<<<<<<<<<<<<<<<<<<<<<<',
      dg11: { fullName: 'MÜLLER<<JÜRGEN' },
    };
    const claims = namesOf(holder);
    expect(claims).toMatchObject({
      primary_identifier: 'MUELLER',
      secondary_identifier: 'JUERGEN',
      family_name: 'MÜLLER',
      given_name: 'JÜRGEN',
      name: 'JÜRGEN MÜLLER',
      display_name: 'Jürgen Müller',
      other_identifier: 'MÜLLER, JÜRGEN',
    });
    expectAgreement(claims);
  });

  it('gives no other_identifier when DG11 repeats the MRZ name', () => {
    const holder = { ...SPECIMEN_PASSPORT, dg11: { fullName: 'ERIKSSON<<ANNA<MARIA' } };
    expect(mapVerifierClaims(holder, PASS, now)).not.toHaveProperty('other_identifier');
  });

  it('takes the full DG11 name when the MRZ name was truncated, and reports it as other_identifier', () => {
    const mrzName = 'ABDULLAH<AL<RASHID<<MOHAMMED<A';
    expect(mrzName).toHaveLength(30);
    const holder = { ...SPECIMEN_ID_CARD, mrzName, dg11: { fullName: 'ABDULLAH<AL<RASHID<<MOHAMMED<AHMED<YUSUF' } };
    const claims = namesOf(holder);
    expect(claims).toMatchObject({
      primary_identifier: 'ABDULLAH AL RASHID',
      secondary_identifier: 'MOHAMMED A',
      name: 'MOHAMMED AHMED YUSUF ABDULLAH AL RASHID',
      given_name: 'MOHAMMED AHMED YUSUF',
      family_name: 'ABDULLAH AL RASHID',
      display_family_name: 'Abdullah Al Rashid',
      other_identifier: 'ABDULLAH AL RASHID, MOHAMMED AHMED YUSUF',
    });
    expectAgreement(claims);
  });

  it('falls back to the MRZ for all three names when the DG11 full name has no << split, keeping DG11 in other_identifier', () => {
    const holder: DocumentHolderData = { ...SPECIMEN_PASSPORT, mrzName: 'MUELLER<<JUERGEN<<<<<<<<<<<<<<<<<<<<<<<<', dg11: { fullName: 'JÜRGEN MÜLLER' } };
    const claims = namesOf(holder);
    expect(claims).toMatchObject({
      name: 'JUERGEN MUELLER',
      given_name: 'JUERGEN',
      family_name: 'MUELLER',
      display_name: 'Juergen Mueller',
      other_identifier: 'JÜRGEN MÜLLER',
    });
    expectAgreement(claims);
  });

  it('takes the names from the MRZ without DG11', () => {
    const claims = namesOf({ ...SPECIMEN_PASSPORT, mrzName: 'NORDMANN<<KAARE<<<<<<<<<<<<<<<<<<<<<<<<' });
    expect(claims).toEqual({
      primary_identifier: 'NORDMANN',
      secondary_identifier: 'KAARE',
      name: 'KAARE NORDMANN',
      given_name: 'KAARE',
      family_name: 'NORDMANN',
      display_name: 'Kaare Nordmann',
      display_given_name: 'Kaare',
      display_family_name: 'Nordmann',
    });
  });

  it("writes hyphens and apostrophes of DG11 in person case: ANNA-MARIA O'NEILL", () => {
    const claims = namesOf({ ...SPECIMEN_PASSPORT, mrzName: 'ONEILL<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<<<', dg11: { fullName: "O'NEILL<<ANNA-MARIA" } });
    expect(claims).toMatchObject({
      name: "ANNA-MARIA O'NEILL",
      display_name: "Anna-Maria O'Neill",
      display_given_name: 'Anna-Maria',
      display_family_name: "O'Neill",
    });
    expectAgreement(claims);
  });

  it('omits secondary identifier, given_name and display_given_name when the document has none', () => {
    const claims = mapVerifierClaims({ ...SPECIMEN_PASSPORT, mrzName: 'SUKARNO<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<' }, PASS, now);
    expect(claims).not.toHaveProperty('secondary_identifier');
    expect(claims).not.toHaveProperty('given_name');
    expect(claims).not.toHaveProperty('display_given_name');
    expect(claims).toMatchObject({ name: 'SUKARNO', family_name: 'SUKARNO', display_name: 'Sukarno' });
  });

  it('releases none of the names, in either case, for a failed verification', () => {
    const holder: DocumentHolderData = { ...SPECIMEN_PASSPORT, mrzName: 'NORDMANN<<KAARE<<<<<<<<<<<<<<<<<<<<<<<<', dg11: { fullName: 'NORDMANN<<KÅRE' } };
    const claims = mapVerifierClaims(holder, { ...PASS, result: 'fail', explanations: ['STATUS_BAD_DOCUMENTHASHES'] }, now);
    expect(claims).toEqual({
      authentication_result: 'fail',
      result_explanation: 'STATUS_BAD_DOCUMENTHASHES',
      document_type: 'PASSPORT',
      issuing_country: 'UTO',
    });
  });
});

describe('mapVerifierClaims: DG11 details and personal number', () => {
  it('prefers the DG11 date of birth (it has the century) and adds place of birth', () => {
    const holder = { ...SPECIMEN_PASSPORT, mrzDateOfBirth: '240812', dg11: { fullDateOfBirth: '19240812', placeOfBirth: ['ZENITH', 'UTOPIA'] } };
    expect(mapVerifierClaims(holder, PASS, now)).toMatchObject({ birthdate: '12.08.1924', place_of_birth: 'ZENITH, UTOPIA' });
    expect(mapVerifierClaims({ ...holder, dg11: {} }, PASS, now).birthdate).toBe('12.08.2024');
  });

  it('falls back to the MRZ date when the DG11 one is unusable, and writes unknown parts as XX', () => {
    expect(mapVerifierClaims({ ...SPECIMEN_PASSPORT, dg11: { fullDateOfBirth: 'garbage' } }, PASS, now).birthdate).toBe('12.08.1974');
    expect(mapVerifierClaims({ ...SPECIMEN_PASSPORT, mrzDateOfBirth: '74<<<<' }, PASS, now).birthdate).toBe('XX.XX.1974');
    expect(mapVerifierClaims({ ...SPECIMEN_PASSPORT, mrzDateOfBirth: '<<<<<<' }, PASS, now)).not.toHaveProperty('birthdate');
  });

  it('takes the personal number from DG11 first, then from passport optional data', () => {
    expect(mapVerifierClaims({ ...SPECIMEN_PASSPORT, dg11: { personalNumber: '19740812-1234' } }, PASS, now).personal_number).toBe('19740812-1234');
    expect(mapVerifierClaims({ ...SPECIMEN_PASSPORT, dg11: { personalNumber: '  ' } }, PASS, now).personal_number).toBe('ZE184226B');
    expect(mapVerifierClaims({ ...SPECIMEN_PASSPORT, optionalData: '<<<<<<<<<<<<<<' }, PASS, now)).not.toHaveProperty('personal_number');
    expect(mapVerifierClaims({ ...SPECIMEN_PASSPORT, optionalData: undefined }, PASS, now)).not.toHaveProperty('personal_number');
  });

  it('does not read ID card optional data as a personal number', () => {
    const card = { ...SPECIMEN_ID_CARD, optionalData: 'ABC123<<<<<<<<<' };
    expect(mapVerifierClaims(card, PASS, now)).not.toHaveProperty('personal_number');
    expect(mapVerifierClaims({ ...card, dg11: { personalNumber: '123456789' } }, PASS, now).personal_number).toBe('123456789');
  });

  it('writes gender only for F and M', () => {
    expect(mapVerifierClaims({ ...SPECIMEN_PASSPORT, sex: 'M' }, PASS, now).gender).toBe('MALE');
    expect(mapVerifierClaims({ ...SPECIMEN_PASSPORT, sex: '<' }, PASS, now)).not.toHaveProperty('gender');
    expect(mapVerifierClaims({ ...SPECIMEN_PASSPORT, sex: 'X' }, PASS, now)).not.toHaveProperty('gender');
  });
});

describe('mapVerifierClaims: verification outcome', () => {
  it('joins failure reasons with commas, without duplicates', () => {
    const fail: VerificationOutcome = {
      result: 'fail',
      explanations: ['STATUS_BAD_DOCUMENTSIGNATURE', 'STATUS_BAD_COUNTRYSIGNERCHAIN', 'STATUS_BAD_DOCUMENTSIGNATURE'],
      facematchLevel: 0,
      sources: ['SDK_NFC', 'SDK_NFC'],
    };
    const claims = mapVerifierClaims(SPECIMEN_PASSPORT, fail, now);
    expect(claims).toMatchObject({
      authentication_result: 'fail',
      result_explanation: 'STATUS_BAD_DOCUMENTSIGNATURE,STATUS_BAD_COUNTRYSIGNERCHAIN',
    });
    // A failed verification explains itself and nothing more (see failed-claims.spec.ts).
    expect(claims).not.toHaveProperty('auth_files_url');
    expect(claims).not.toHaveProperty('facematch_level');
    expect(mapVerifierClaims(SPECIMEN_PASSPORT, { ...PASS, sources: ['SDK_NFC', 'SDK_NFC'] }, now).authentication_sources).toEqual(['SDK_NFC']);
  });

  it('gives a single reason as exactly the spec value, and none on pass', () => {
    const fail: VerificationOutcome = { ...PASS, result: 'fail', explanations: ['STATUS_BAD_CLONEDETECTION'] };
    expect(mapVerifierClaims(SPECIMEN_PASSPORT, fail, now).result_explanation).toBe('STATUS_BAD_CLONEDETECTION');
    expect(mapVerifierClaims(SPECIMEN_PASSPORT, { ...PASS, explanations: ['STATUS_BAD_CLONEDETECTION'] }, now)).not.toHaveProperty('result_explanation');
    expect(mapVerifierClaims(SPECIMEN_PASSPORT, { ...fail, explanations: [] }, now)).not.toHaveProperty('result_explanation');
  });

  it('refuses a face match level outside 0..9', () => {
    expect(() => mapVerifierClaims(SPECIMEN_PASSPORT, { ...PASS, facematchLevel: 10 }, now)).toThrow(RangeError);
    expect(() => mapVerifierClaims(SPECIMEN_PASSPORT, { ...PASS, facematchLevel: 7.5 }, now)).toThrow(RangeError);
  });
});
