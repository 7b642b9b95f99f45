import { buildDcqlQuery, validateDcqlQuery } from '@identity-broker/eu-wallet';
import { reusedIdentityAcr, reusedIdentityClaims } from './reused-identity-claims.js';
import { wantedCredentials } from './wallet-credentials.js';

const VCT = 'https://broker.example/vct/verified-document-identity';
const reused = (scopes: string[], acrHigh = false) => wantedCredentials(scopes, { vct: VCT, acrHigh }).find((c) => c.id === 'reused_identity')!;
const paths = (scopes: string[], acrHigh = false) => {
  const c = reused(scopes, acrHigh);
  if (c.format !== 'dc+sd-jwt') throw new Error('not an SD-JWT VC query');
  return { required: c.claims.map((p) => p.join('/')), optional: (c.optionalClaims ?? []).map((p) => p.join('/')) };
};
const ALWAYS = ['issuing_country', 'document_type', 'document_number', 'date_of_expiry', 'verified_at', 'facematch_level'];

describe("what the wallet scheme asks of the service's own credential (data minimisation by scope)", () => {
  it('is asked for only when a provider is trusted, as one more alternative after the EU wallet credentials', () => {
    expect(wantedCredentials(['openid']).map((c) => c.id)).toEqual(['pid_sd_jwt', 'pid_mdoc', 'mdl']);
    const query = buildDcqlQuery(wantedCredentials(['openid', 'profile', 'ssn'], { vct: VCT, acrHigh: true }));
    expect(() => validateDcqlQuery(query)).not.toThrow();
    expect(query.credential_sets).toEqual([expect.objectContaining({ options: [['pid_sd_jwt'], ['pid_mdoc'], ['mdl'], ['reused_identity']], required: true })]);
    expect(query.credentials.at(-1)).toMatchObject({ id: 'reused_identity', format: 'dc+sd-jwt', meta: { vct_values: [VCT] } });
  });

  it('ageverify18: the age statement and the always-asked claims, no birth date', () => {
    expect(paths(['openid', 'ageverify18'])).toEqual({ required: [...ALWAYS, 'age_equal_or_over/18'], optional: [] });
  });

  it('ageverify21 and ageverify65 together: both statements; ageverify17 (no statement for it): the birth date', () => {
    expect(paths(['openid', 'ageverify21', 'ageverify65']).required).toEqual([...ALWAYS, 'age_equal_or_over/21', 'age_equal_or_over/65']);
    expect(paths(['openid', 'ageverify17']).required).toEqual([...ALWAYS, 'birthdate']);
  });

  it('openid alone: only what spec 2.1 releases without a scope and the subject needs', () => {
    expect(paths(['openid'])).toEqual({ required: ALWAYS, optional: [] });
  });

  it('profile: names, birth date, nationality; given name, gender and place of birth optional; no age statement', () => {
    expect(paths(['openid', 'profile', 'ageverify18'])).toEqual({
      required: [...ALWAYS, 'primary_identifier', 'name', 'nationality', 'birthdate'],
      optional: ['secondary_identifier', 'gender', 'place_of_birth'],
    });
  });

  it('ssn: the personal number, optional (not every document has one)', () => {
    expect(paths(['openid', 'ssn'])).toEqual({ required: ALWAYS, optional: ['personal_number'] });
  });

  it('assurance only when acr high was asked (it serves nothing else)', () => {
    expect(paths(['openid'], true).required).toEqual([...ALWAYS, 'assurance']);
  });

  it('offers optional claims as claim_sets, every subset beside the required ones, the largest first', () => {
    const query = buildDcqlQuery([reused(['openid', 'ssn'])]);
    const [credential] = query.credentials;
    expect(credential.claims!.map((c) => c.id)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    expect(credential.claim_sets).toEqual([
      ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6'],
      ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'],
    ]);
    const profile = buildDcqlQuery([reused(['openid', 'profile', 'ssn'])]).credentials[0];
    expect(profile.claim_sets).toHaveLength(16);
    expect(profile.claim_sets!.map((s) => s.length)).toEqual([...profile.claim_sets!.map((s) => s.length)].sort((a, b) => b - a));
  });
});

const SPECIMEN = {
  iss: 'https://broker.example/vci',
  vct: VCT,
  document_type: 'PASSPORT',
  issuing_country: 'D',
  document_number: 'C01X00T47',
  date_of_expiry: '2031-10-31',
  primary_identifier: 'MUSTERMANN',
  secondary_identifier: 'ERIKA',
  name: 'ERIKA MUSTERMANN',
  birthdate: '1964-08-12',
  nationality: 'D',
  gender: 'FEMALE',
  place_of_birth: 'BERLIN',
  personal_number: '123',
  facematch_level: 7,
  verified_at: '2026-11-20',
  assurance: 'high',
};

describe("claims of the service's own credential", () => {
  it('gives spec 2.1 claims as the document verifier does: DD.MM.YYYY, country names, given/family name agreeing with name', () => {
    const { claims, birthDate, verifiedAt } = reusedIdentityClaims(SPECIMEN, ['openid', 'profile', 'ssn']);
    expect([birthDate, verifiedAt]).toEqual(['1964-08-12', '2026-11-20']);
    expect(claims).toEqual({
      document_type: 'PASSPORT',
      issuing_country: 'D',
      interpreted_issuing_country: 'Germany',
      document_number: 'C01X00T47',
      primary_identifier: 'MUSTERMANN',
      secondary_identifier: 'ERIKA',
      name: 'ERIKA MUSTERMANN',
      nationality: 'D',
      interpreted_nationality: 'Germany',
      birthdate: '12.08.1964',
      personal_number: '123',
      gender: 'FEMALE',
      date_of_expiry: '31.10.2031',
      place_of_birth: 'BERLIN',
      facematch_level: 7,
      authentication_sources: ['REUSED_CREDENTIAL'],
      authentication_result: 'pass',
      verified_at: '2026-11-20',
      given_name: 'ERIKA',
      family_name: 'MUSTERMANN',
      display_name: 'Erika Mustermann',
      display_given_name: 'Erika',
      display_family_name: 'Mustermann',
    });
    // Neither the credential's own fields nor what spec 2.1 has no claim for.
    for (const name of ['iss', 'vct', 'assurance']) expect(claims).not.toHaveProperty(name);
  });

  it('divides the DG11 name the verifier gave (KÅRE NORDMANN) where an MRZ identifier matches, so the names agree as they did', () => {
    const kaare = { ...SPECIMEN, primary_identifier: 'NORDMANN', secondary_identifier: 'KAARE', name: 'KÅRE NORDMANN' };
    expect(reusedIdentityClaims(kaare, ['openid', 'profile']).claims).toMatchObject({
      primary_identifier: 'NORDMANN',
      secondary_identifier: 'KAARE',
      name: 'KÅRE NORDMANN',
      given_name: 'KÅRE',
      family_name: 'NORDMANN',
      display_name: 'Kåre Nordmann',
      display_given_name: 'Kåre',
      display_family_name: 'Nordmann',
    });
  });

  it('gives no given/family name rather than one that disagrees with name when no identifier matches it', () => {
    const { claims } = reusedIdentityClaims({ ...SPECIMEN, primary_identifier: 'MUELLER', secondary_identifier: 'JUERGEN', name: 'JÜRGEN MÜLLER' }, [
      'openid',
      'profile',
    ]);
    expect(claims).toMatchObject({ primary_identifier: 'MUELLER', secondary_identifier: 'JUERGEN', name: 'JÜRGEN MÜLLER', display_name: 'Jürgen Müller' });
    for (const name of ['given_name', 'family_name', 'display_given_name', 'display_family_name']) expect(claims).not.toHaveProperty(name);
  });

  it('takes age_over_NN from the statements when no birth date was disclosed, with the digits as the scope writes them', () => {
    const values = { issuing_country: 'NOR', document_number: 'X1', verified_at: '2026-11-20', age_equal_or_over: { '18': true, '65': false } };
    const { claims, birthDate } = reusedIdentityClaims(values, ['openid', 'ageverify18', 'ageverify65', 'ageverify21']);
    expect(birthDate).toBeUndefined();
    expect(claims).toMatchObject({ age_over_18: true, age_over_65: false, interpreted_issuing_country: 'Norway' });
    expect(claims).not.toHaveProperty('age_over_21');
  });

  it('leaves out values that are not what the contract says (wrong types, formats, unknown values)', () => {
    const { claims, verifiedAt } = reusedIdentityClaims(
      { document_type: 'SPACESHIP', issuing_country: 'germany', birthdate: '12.08.1964', gender: 'X', facematch_level: 12, verified_at: '2026-11', name: 42 },
      ['openid', 'profile'],
    );
    expect(verifiedAt).toBeUndefined();
    expect(claims).toEqual({ authentication_sources: ['REUSED_CREDENTIAL'], authentication_result: 'pass' });
  });
});

describe('acr of a reused credential', () => {
  const now = new Date('2026-11-26T06:00:00Z');
  const asked = ['urn:svc:acrp:level:high'];
  const acr = (over: Partial<Parameters<typeof reusedIdentityAcr>[0]>) =>
    reusedIdentityAcr({ acrValues: asked, assurance: 'high', verifiedAt: '2026-11-20', maxAgeDays: 30, now, ...over });

  it('eIDAS high when asked, the verification reached high and it is within the merchant’s days', () => {
    expect(acr({})).toBe('urn:svc:cert:eidas:high');
    expect(acr({ verifiedAt: '2026-11-26' })).toBe('urn:svc:cert:eidas:high');
    expect(acr({ maxAgeDays: 6 })).toBe('urn:svc:cert:eidas:high');
  });

  it('none when too old for the merchant', () => {
    expect(acr({ maxAgeDays: 5 })).toBeUndefined();
    // 30 days before 26 November is 27 October: still high at the default; a day more is too old.
    expect(acr({ verifiedAt: '2026-10-27' })).toBe('urn:svc:cert:eidas:high');
    expect(acr({ verifiedAt: '2026-10-26' })).toBeUndefined();
  });

  it('none when not asked for', () => {
    expect(acr({ acrValues: [] })).toBeUndefined();
  });

  it('none for a substantial verification, or without a (well-formed, past) verification day', () => {
    expect(acr({ assurance: 'substantial' })).toBeUndefined();
    expect(acr({ assurance: undefined })).toBeUndefined();
    expect(acr({ verifiedAt: undefined })).toBeUndefined();
    expect(acr({ verifiedAt: '2026-11-27' })).toBeUndefined();
  });
});
