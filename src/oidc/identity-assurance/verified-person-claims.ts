/*
 * The claims a `verified_claims` set can carry (IDA Claims Registration 1.0 §4 and the OIDC Core standard claims), made
 * from the claims the login releases to this merchant under its scopes, so that they always equal the plain claims of
 * the same login and never say more: a merchant without `profile` gets none of them. Only the formats differ where the
 * schema fixes them (ISO dates, ICAO nationality codes in an array, the place of birth as an object).
 */

export const CLAIMS_IN_VERIFIED_CLAIMS = ['given_name', 'family_name', 'name', 'birthdate', 'gender', 'nationalities', 'place_of_birth'] as const;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** ICAO 9303-3 §5: Germany's one-letter code in documents is DEU everywhere else. */
const ICAO_LONG_FORM: Readonly<Record<string, string>> = { D: 'DEU' };

/** `released`: the plain claims this merchant receives; `birthDate`: the login's ISO date of birth. */
export function verifiedPersonClaims(released: Readonly<Record<string, unknown>>, birthDate: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of ['given_name', 'family_name', 'name'] as const) if (typeof released[name] === 'string' && released[name]) out[name] = released[name];
  if (released.birthdate !== undefined) {
    const iso = birthDate ?? (typeof released.birthdate === 'string' ? released.birthdate : undefined);
    if (iso && ISO_DATE.test(iso)) out.birthdate = iso;
  }
  // Spec 2.1 says FEMALE or MALE; OIDC Core 5.1 (and the schema's claims) say female or male.
  if (typeof released.gender === 'string' && /^(female|male)$/i.test(released.gender)) out.gender = released.gender.toLowerCase();
  const nationalities = nationalitiesOf(released);
  if (nationalities) out.nationalities = nationalities;
  if (typeof released.place_of_birth === 'string' && released.place_of_birth) out.place_of_birth = { locality: released.place_of_birth };
  else if (typeof released.place_of_birth === 'object' && released.place_of_birth) out.place_of_birth = released.place_of_birth;
  return out;
}

/** Spec 2.1's nationality (one ICAO code) as IDA's nationalities (an array); a scheme's own array as it is. */
function nationalitiesOf(released: Readonly<Record<string, unknown>>): unknown[] | undefined {
  const nationality = typeof released.nationality === 'string' ? released.nationality.replace(/</g, '') : undefined;
  const code = nationality && (ICAO_LONG_FORM[nationality] ?? nationality);
  if (code && /^[A-Z]{3}$/.test(code)) return [code];
  return Array.isArray(released.nationalities) && released.nationalities.length ? released.nationalities : undefined;
}
