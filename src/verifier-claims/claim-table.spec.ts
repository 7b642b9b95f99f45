import { AGE_VERIFY_SCOPES } from './age.js';
import { STANDARD_SCOPE_CLAIMS, VERIFIER_CLAIMS, claimsByScope, verifierClaim } from './claim-table.js';

/** Spec 2.1, transcribed: OIDC claim -> [SAML attribute, scope ('openid' for the spec's "none")]. */
const SPEC_2_1: Record<string, [string, string]> = {
  document_type: ['documenttype', 'openid'],
  issuing_country: ['issuingcountry', 'openid'],
  interpreted_issuing_country: ['interpretedissuingcountry', 'openid'],
  document_number: ['documentnumber', 'openid'],
  primary_identifier: ['primaryidentifier', 'profile'],
  secondary_identifier: ['secondaryidentifier', 'profile'],
  nationality: ['nationality', 'profile'],
  interpreted_nationality: ['interpretednationality', 'profile'],
  birthdate: ['DOB', 'profile'],
  personal_number: ['personalnumber', 'ssn'],
  gender: ['gender', 'profile'],
  date_of_expiry: ['dateofexpiry', 'openid'],
  name: ['fullname', 'profile'],
  place_of_birth: ['placeofbirth', 'profile'],
  facematch_level: ['facematchlevel', 'openid'],
  auth_files_url: ['AUTHFILESURL', 'openid'],
  acr: ['ACR', 'openid'],
  authentication_sources: ['AUTHENTICATION_SOURCES', 'openid'],
  other_identifier: ['OTHER_IDENTIFIER', 'openid'],
  authentication_result: ['AUTHENTICATION_RESULT', 'openid'],
  result_explanation: ['result_explanation', 'openid'],
};

describe('VERIFIER_CLAIMS (spec 2.1 as data)', () => {
  it('has exactly the spec claims, in spec order, with the spec SAML names and scopes', () => {
    expect(VERIFIER_CLAIMS.map((c) => c.oidcName)).toEqual(Object.keys(SPEC_2_1));
    for (const c of VERIFIER_CLAIMS) expect([c.samlName, c.scope]).toEqual(SPEC_2_1[c.oidcName]);
  });

  it('marks only acr as produced by the broker', () => {
    expect(VERIFIER_CLAIMS.filter((c) => c.producedBy === 'broker').map((c) => c.oidcName)).toEqual(['acr']);
  });

  it('has unique OIDC and SAML names and is frozen', () => {
    expect(new Set(VERIFIER_CLAIMS.map((c) => c.oidcName)).size).toBe(VERIFIER_CLAIMS.length);
    expect(new Set(VERIFIER_CLAIMS.map((c) => c.samlName)).size).toBe(VERIFIER_CLAIMS.length);
    expect(Object.isFrozen(VERIFIER_CLAIMS)).toBe(true);
    expect(Object.isFrozen(VERIFIER_CLAIMS[0])).toBe(true);
  });

  it('looks claims up by OIDC name', () => {
    expect(verifierClaim('birthdate')).toMatchObject({ samlName: 'DOB', scope: 'profile' });
    expect(verifierClaim('given_name')).toBeUndefined();
  });
});

describe('claimsByScope', () => {
  const table = claimsByScope();

  it('puts every claim under exactly one scope', () => {
    const all = Object.values(table).flat();
    expect(new Set(all).size).toBe(all.length);
    for (const c of VERIFIER_CLAIMS) {
      const scopes = Object.keys(table).filter((s) => table[s]!.includes(c.oidcName));
      expect({ claim: c.oidcName, scopes }).toEqual({ claim: c.oidcName, scopes: [c.scope] });
    }
  });

  it('gates personal_number, and only it, by ssn', () => {
    expect(table.ssn).toEqual(['personal_number']);
  });

  it('releases sub and the spec "none" claims with openid', () => {
    expect(table.openid![0]).toBe('sub');
    expect(table.openid).toEqual(expect.arrayContaining(['document_type', 'facematch_level', 'authentication_result', 'result_explanation', 'acr']));
    expect(table.openid).not.toContain('birthdate');
  });

  it('adds the standard OIDC claims', () => {
    expect(table.profile).toEqual(expect.arrayContaining(['given_name', 'family_name', 'name', 'birthdate', 'gender']));
    expect(table.email).toEqual(['email', 'email_verified']);
    expect(table.phone).toEqual(['phone_number', 'phone_number_verified']);
    expect(table.address).toEqual(['address']);
    expect(STANDARD_SCOPE_CLAIMS.openid).toEqual(['sub']);
  });

  it('releases the person-case names with profile, like the names they repeat, and under no other scope', () => {
    const display = ['display_name', 'display_given_name', 'display_family_name'];
    expect(table.profile).toEqual(expect.arrayContaining(display));
    for (const [scope, claims] of Object.entries(table))
      if (scope !== 'profile') for (const name of display) expect([scope, claims.includes(name)]).toEqual([scope, false]);
    for (const name of display) expect(verifierClaim(name)).toBeUndefined(); // no SAML attribute, as for given_name
  });

  it('maps every ageverify scope to its own age_over claim and nothing else', () => {
    expect(AGE_VERIFY_SCOPES).toHaveLength(110);
    for (const scope of AGE_VERIFY_SCOPES) expect(table[scope]).toEqual([`age_over_${scope.slice(9)}`]);
    expect(table.ageverify18).toEqual(['age_over_18']);
    expect(table.ageverify5).toEqual(['age_over_5']);
    expect(table.ageverify05).toEqual(['age_over_05']);
    expect(table.ageverify100).toBeUndefined();
  });

  it('accepts a shorter list of age scopes and refuses non-age scopes there', () => {
    const short = claimsByScope({ ageVerifyScopes: ['ageverify18', 'ageverify21'] });
    expect(Object.keys(short).filter((s) => s.startsWith('ageverify'))).toEqual(['ageverify18', 'ageverify21']);
    expect(() => claimsByScope({ ageVerifyScopes: ['profile'] })).toThrow(RangeError);
  });

  it('returns a fresh object each time (callers may mutate it)', () => {
    const a = claimsByScope();
    a.openid!.push('x');
    expect(claimsByScope().openid).not.toContain('x');
  });
});
