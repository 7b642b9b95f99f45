import { releasedClaims } from './release.js';

describe('releasedClaims: the OIDC scope rule for front doors without the engine', () => {
  const login = {
    claims: { document_number: 'L898902C3', name: 'ANNA ERIKSSON', personal_number: 'ZE184226B', birthdate: '12.08.1974', given_name: 'ANNA', extra: 'x' },
    acr: 'urn:svc:cert:eidas:high',
    birthDate: '1974-08-12',
  };
  const now = new Date('2024-01-01T00:00:00Z');

  it('openid releases the scope-free claims and acr only', () => {
    expect(releasedClaims(login, ['openid'], now)).toEqual({ document_number: 'L898902C3', acr: 'urn:svc:cert:eidas:high' });
  });

  it('profile and ssn add their claims; nothing outside the table is ever released', () => {
    expect(releasedClaims(login, ['openid', 'profile', 'ssn'], now)).toEqual({
      document_number: 'L898902C3',
      acr: 'urn:svc:cert:eidas:high',
      name: 'ANNA ERIKSSON',
      birthdate: '12.08.1974',
      given_name: 'ANNA',
      personal_number: 'ZE184226B',
    });
  });

  it('releases given/family name and their person-case forms only with profile', () => {
    const names = {
      name: 'KÅRE NORDMANN',
      given_name: 'KÅRE',
      family_name: 'NORDMANN',
      display_name: 'Kåre Nordmann',
      display_given_name: 'Kåre',
      display_family_name: 'Nordmann',
    };
    const withNames = { ...login, claims: { document_number: 'FH7654321', ...names } };
    expect(releasedClaims(withNames, ['openid', 'ssn', 'ageverify18'], now)).toEqual({
      document_number: 'FH7654321',
      acr: 'urn:svc:cert:eidas:high',
      age_over_18: true,
    });
    expect(releasedClaims(withNames, ['openid', 'profile'], now)).toEqual({ document_number: 'FH7654321', acr: 'urn:svc:cert:eidas:high', ...names });
  });

  it('ageverifyNN releases age_over_NN on the day, never the birth date', () => {
    expect(releasedClaims(login, ['openid', 'ageverify18', 'ageverify65'], now)).toEqual({
      document_number: 'L898902C3',
      acr: 'urn:svc:cert:eidas:high',
      age_over_18: true,
      age_over_65: false,
    });
  });
});
