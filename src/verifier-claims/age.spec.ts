import { AGE_VERIFY_SCOPE, ageClaimName, ageOverClaims } from './age.js';

const at = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe('AGE_VERIFY_SCOPE / ageClaimName', () => {
  it('accepts ageverify with one or two digits only', () => {
    expect(['ageverify1', 'ageverify18', 'ageverify05'].every((s) => AGE_VERIFY_SCOPE.test(s))).toBe(true);
    expect(['ageverify', 'ageverify100', 'ageverify1a', 'xageverify18', 'AGEVERIFY18'].some((s) => AGE_VERIFY_SCOPE.test(s))).toBe(false);
  });

  it('names the claim after the digits as written', () => {
    expect(ageClaimName('ageverify18')).toBe('age_over_18');
    expect(ageClaimName('ageverify5')).toBe('age_over_5');
    expect(ageClaimName('ageverify05')).toBe('age_over_05');
    expect(ageClaimName('profile')).toBeUndefined();
  });
});

describe('ageOverClaims', () => {
  const born = '2008-11-22';

  it('counts the birthday itself as having reached the age', () => {
    expect(ageOverClaims(['ageverify18'], born, at('2026-11-21'))).toEqual({ age_over_18: false });
    expect(ageOverClaims(['ageverify18'], born, at('2026-11-22'))).toEqual({ age_over_18: true });
    expect(ageOverClaims(['ageverify18'], born, at('2026-11-23'))).toEqual({ age_over_18: true });
  });

  it('uses the UTC date of now', () => {
    expect(ageOverClaims(['ageverify18'], born, new Date('2026-11-21T23:30:00-02:00'))).toEqual({ age_over_18: true });
    expect(ageOverClaims(['ageverify18'], born, new Date('2026-11-21T23:59:59Z'))).toEqual({ age_over_18: false });
  });

  it('answers every granted age scope and ignores other scopes', () => {
    expect(ageOverClaims(['openid', 'profile', 'ageverify16', 'ageverify18', 'ageverify21', 'ageverify100'], born, at('2026-11-22'))).toEqual({
      age_over_16: true,
      age_over_18: true,
      age_over_21: false,
    });
  });

  it('lets a 29 February birthday reach the age on 1 March in non-leap years', () => {
    expect(ageOverClaims(['ageverify18'], '2008-02-29', at('2026-02-28'))).toEqual({ age_over_18: false });
    expect(ageOverClaims(['ageverify18'], '2008-02-29', at('2026-03-01'))).toEqual({ age_over_18: true });
  });

  it('lets a 29 February birthday reach the age on 29 February in leap years', () => {
    expect(ageOverClaims(['ageverify24'], '2000-02-29', at('2024-02-28'))).toEqual({ age_over_24: false });
    expect(ageOverClaims(['ageverify24'], '2000-02-29', at('2024-02-29'))).toEqual({ age_over_24: true });
  });

  it('answers for a partial birth date only when every possible date agrees', () => {
    const scopes = ['ageverify17', 'ageverify18', 'ageverify19'];
    expect(ageOverClaims(scopes, '2008', at('2026-06-01'))).toEqual({ age_over_17: true, age_over_19: false });
    expect(ageOverClaims(scopes, '2008-05', at('2026-06-01'))).toEqual({ age_over_17: true, age_over_18: true, age_over_19: false });
    expect(ageOverClaims(scopes, '2008-06', at('2026-06-01'))).toEqual({ age_over_17: true, age_over_19: false });
    // February 2008 includes the 29th, whose 18th birthday in 2026 falls on 1 March.
    expect(ageOverClaims(scopes, '2008-02', at('2026-02-28'))).toEqual({ age_over_17: true, age_over_19: false });
    expect(ageOverClaims(scopes, '2008-02', at('2026-03-01'))).toEqual({ age_over_17: true, age_over_18: true, age_over_19: false });
  });

  it('gives nothing without a usable birth date', () => {
    expect(ageOverClaims(['ageverify18'], undefined, at('2026-06-01'))).toEqual({});
    expect(ageOverClaims(['ageverify18'], 'nonsense', at('2026-06-01'))).toEqual({});
  });
});
