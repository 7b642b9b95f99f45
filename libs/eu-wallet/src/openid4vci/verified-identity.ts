/**
 * The verified identity credential's claims (docs: the shared OpenID4VCI contract, "The credential"): their names, the
 * checks of their values before they are signed, and the disclosure frame that makes each one selectively
 * disclosable (RFC 9901 §4.2), `age_equal_or_over` one disclosure per age as the EU PID encodes it.
 */
export const VERIFIED_IDENTITY_CONFIGURATION_ID = 'verified_document_identity';

export type AgeThreshold = '12' | '14' | '16' | '18' | '21' | '65';
export const AGE_THRESHOLDS: readonly AgeThreshold[] = ['12', '14', '16', '18', '21', '65'];

/** The selectively disclosable claims; each absent when the verification record lacks it. */
export interface VerifiedIdentityClaims {
  /** The document's type as the verification spec names it, e.g. "PASSPORT". */
  document_type?: string;
  /** ICAO 9303 three-letter code. */
  issuing_country?: string;
  document_number?: string;
  personal_number?: string;
  /** YYYY-MM-DD. */
  date_of_expiry?: string;
  primary_identifier?: string;
  secondary_identifier?: string;
  name?: string;
  /** YYYY-MM-DD. */
  birthdate?: string;
  /** ICAO 9303 three-letter code. */
  nationality?: string;
  gender?: 'FEMALE' | 'MALE';
  place_of_birth?: string;
  age_equal_or_over?: Partial<Record<AgeThreshold, boolean>>;
  /** 0..9. */
  facematch_level?: number;
  /** The original verification's day, YYYY-MM-DD. */
  verified_at?: string;
  assurance?: 'high' | 'substantial';
  /**
   * The evidence summary, flat (not IDA's `verification` element, whose schema a `verification` object of other members
   * would fail): the trust framework the verification was made under (IDA's predefined values or the issuer's URNs)...
   */
  verification_trust_framework?: string;
  /** ...the kind of evidence examined (IDA Schema Definition 1.0 §5.4.4: `document`)... */
  verification_evidence_type?: 'document';
  /** ...and when the original verification completed (ISO 8601 date-time, UTC, to the second). */
  verification_time?: string;
}

/** The claim names in the contract's order: the order of the credential's disclosures and of the metadata. */
export const VERIFIED_IDENTITY_CLAIM_NAMES = [
  'document_type',
  'issuing_country',
  'document_number',
  'personal_number',
  'date_of_expiry',
  'primary_identifier',
  'secondary_identifier',
  'name',
  'birthdate',
  'nationality',
  'gender',
  'place_of_birth',
  'age_equal_or_over',
  'facematch_level',
  'verified_at',
  'assurance',
  'verification_trust_framework',
  'verification_evidence_type',
  'verification_time',
] as const satisfies readonly (keyof VerifiedIdentityClaims)[];

const ISO_DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** ICAO 9303-3 §5: three letters, except Germany's single `D`. */
const ICAO_CODE = /^(?:[A-Z]{3}|D)$/;
/** A UTC date-time to the second (RFC 3339 §5.6 with `Z`), as IDA's `time`. */
const UTC_SECOND = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;
/** A framework identifier: printable ASCII without spaces (a predefined value, a URN, a URL). */
const IDENTIFIER = /^[\x21-\x7e]{1,200}$/;
const MAX_TEXT = 256;

const text = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= MAX_TEXT;
const CHECKS: Record<(typeof VERIFIED_IDENTITY_CLAIM_NAMES)[number], (v: unknown) => boolean> = {
  document_type: text,
  issuing_country: (v) => typeof v === 'string' && ICAO_CODE.test(v),
  document_number: text,
  personal_number: text,
  date_of_expiry: (v) => typeof v === 'string' && ISO_DAY.test(v),
  primary_identifier: text,
  secondary_identifier: text,
  name: text,
  birthdate: (v) => typeof v === 'string' && ISO_DAY.test(v),
  nationality: (v) => typeof v === 'string' && ICAO_CODE.test(v),
  gender: (v) => v === 'FEMALE' || v === 'MALE',
  place_of_birth: text,
  age_equal_or_over: (v) =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.entries(v).every(([k, b]) => (AGE_THRESHOLDS as string[]).includes(k) && typeof b === 'boolean'),
  facematch_level: (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 9,
  verified_at: (v) => typeof v === 'string' && ISO_DAY.test(v),
  assurance: (v) => v === 'high' || v === 'substantial',
  verification_trust_framework: (v) => typeof v === 'string' && IDENTIFIER.test(v),
  verification_evidence_type: (v) => v === 'document',
  verification_time: (v) => typeof v === 'string' && UTC_SECOND.test(v),
};

/**
 * The claims to sign: only the contract's names, in its order, undefined ones left out, each value checked (an Error
 * names the claim, never its value). Anything else in the input is a programming error, not a request's.
 */
export function verifiedIdentityClaims(input: VerifiedIdentityClaims): Record<string, unknown> {
  const known = new Set<string>(VERIFIED_IDENTITY_CLAIM_NAMES);
  const unknown = Object.keys(input).find((k) => !known.has(k));
  if (unknown !== undefined) throw new Error(`claim ${unknown} is not a claim of the verified identity credential`);
  const claims: Record<string, unknown> = {};
  for (const name of VERIFIED_IDENTITY_CLAIM_NAMES) {
    const value = input[name];
    if (value === undefined) continue;
    if (!CHECKS[name](value)) throw new Error(`claim ${name} does not have the value type the contract gives`);
    claims[name] =
      name === 'age_equal_or_over'
        ? Object.fromEntries(
            AGE_THRESHOLDS.filter((a) => (value as Record<string, boolean>)[a] !== undefined).map((a) => [a, (value as Record<string, boolean>)[a]]),
          )
        : value;
  }
  return claims;
}

/** @sd-jwt's disclosure frame: every claim its own disclosure; age_equal_or_over also each of its members. */
export function verifiedIdentityDisclosureFrame(claims: Record<string, unknown>): Record<string, unknown> {
  const frame: Record<string, unknown> = { _sd: Object.keys(claims) };
  const ages = claims.age_equal_or_over;
  if (typeof ages === 'object' && ages !== null) frame.age_equal_or_over = { _sd: Object.keys(ages) };
  return frame;
}
