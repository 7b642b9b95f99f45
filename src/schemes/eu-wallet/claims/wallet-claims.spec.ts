import { buildDcqlQuery, validateDcqlQuery } from '@identity-broker/eu-wallet';
import { walletClaims } from './wallet-claims.js';
import { wantedCredentials } from './wallet-credentials.js';

const pathsOf = (scopes: string[]) => Object.fromEntries(wantedCredentials(scopes).map((c) => [c.id, c.claims.map((p) => p.join('/'))]));

describe('what the wallet scheme asks for (data minimisation by scope)', () => {
  it('asks an ageverify18 merchant only for the age statement and the issuing country', () => {
    expect(pathsOf(['openid', 'ageverify18'])).toEqual({
      pid_sd_jwt: ['issuing_country', 'age_equal_or_over/18'],
      pid_mdoc: ['eu.europa.ec.eudi.pid.1/issuing_country', 'eu.europa.ec.eudi.pid.1/age_over_18'],
      mdl: ['org.iso.18013.5.1/issuing_country', 'org.iso.18013.5.1/document_number', 'org.iso.18013.5.1/age_over_18'],
    });
  });

  it('asks a profile merchant for names, birth date and nationality, and no age statement (the birth date answers it)', () => {
    const paths = pathsOf(['openid', 'profile', 'ageverify21']);
    expect(paths.pid_sd_jwt).toEqual(['issuing_country', 'family_name', 'given_name', 'birthdate', 'nationalities/']);
    expect(paths.pid_mdoc).toEqual(['issuing_country', 'nationality', 'family_name', 'given_name', 'birth_date'].map((e) => `eu.europa.ec.eudi.pid.1/${e}`));
    expect(paths.mdl).not.toContain('org.iso.18013.5.1/age_over_21');
  });

  it('makes a DCQL query that offers the three credentials as alternatives, one of them required', () => {
    for (const scopes of [['openid'], ['openid', 'ageverify18'], ['openid', 'profile', 'ssn']]) {
      const query = buildDcqlQuery(wantedCredentials(scopes));
      expect(() => validateDcqlQuery(query)).not.toThrow();
      expect(query.credentials.map((c) => c.id)).toEqual(['pid_sd_jwt', 'pid_mdoc', 'mdl']);
      expect(query.credential_sets).toEqual([expect.objectContaining({ options: [['pid_sd_jwt'], ['pid_mdoc'], ['mdl']] })]);
    }
  });

  it('writes one-digit thresholds as the credentials do: "5" in the PID, age_over_05 in mdocs', () => {
    const paths = pathsOf(['openid', 'ageverify5']);
    expect(paths.pid_sd_jwt).toContain('age_equal_or_over/5');
    expect(paths.mdl).toContain('org.iso.18013.5.1/age_over_05');
  });
});

describe('claims of a wallet presentation', () => {
  it('names a PID as the document verifier names a document: identifiers, DD.MM.YYYY, ICAO country codes', () => {
    const { claims, birthDate } = walletClaims(
      'pid_sd_jwt',
      { family_name: 'Mustermann', given_name: 'Erika', birthdate: '1964-08-12', nationalities: ['DE'], issuing_country: 'AT' },
      ['openid', 'profile'],
    );
    expect(birthDate).toBe('1964-08-12');
    expect(claims).toEqual({
      document_type: 'EU_PID',
      family_name: 'Mustermann',
      primary_identifier: 'Mustermann',
      given_name: 'Erika',
      secondary_identifier: 'Erika',
      name: 'Erika Mustermann',
      // already in mixed case: the person-case forms keep the credential's own spelling
      display_name: 'Erika Mustermann',
      display_given_name: 'Erika',
      display_family_name: 'Mustermann',
      birthdate: '12.08.1964',
      issuing_country: 'AUT',
      interpreted_issuing_country: 'Austria',
      nationality: 'D',
      interpreted_nationality: 'Germany',
    });
  });

  it('writes the person-case forms of a name in capitals', () => {
    const { claims } = walletClaims('pid_sd_jwt', { family_name: 'NORDMANN', given_name: 'KÅRE' }, ['openid', 'profile']);
    expect(claims).toMatchObject({
      name: 'KÅRE NORDMANN',
      given_name: 'KÅRE',
      family_name: 'NORDMANN',
      display_name: 'Kåre Nordmann',
      display_given_name: 'Kåre',
      display_family_name: 'Nordmann',
    });
  });

  it('takes age_over_NN from the age statement when no birth date was asked, and the mDL document number', () => {
    expect(walletClaims('pid_sd_jwt', { issuing_country: 'FR', age_equal_or_over: { '18': true } }, ['openid', 'ageverify18']).claims).toMatchObject({
      age_over_18: true,
    });
    const mdl = walletClaims('mdl', { issuing_country: 'SE', document_number: 'SE1234567', age_over_05: false }, ['openid', 'ageverify5']);
    expect(mdl.claims).toMatchObject({ document_type: 'DRIVERS_LICENSE', document_number: 'SE1234567', issuing_country: 'SWE', age_over_5: false });
    expect(mdl.birthDate).toBeUndefined();
  });

  it('leaves out what is missing or not what it claims to be: no invented names, dates or countries', () => {
    const { claims } = walletClaims(
      'pid_mdoc',
      { family_name: ' ', birth_date: '12.08.1964', nationality: ['XX1'], issuing_country: 'ZZ', age_over_18: 'yes' },
      ['openid', 'ageverify18'],
    );
    expect(claims).toEqual({ document_type: 'EU_PID' });
  });
});
