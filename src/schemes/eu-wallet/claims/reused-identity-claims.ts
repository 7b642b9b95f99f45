import { ACR_EIDAS_HIGH, ACR_REQUEST_HIGH } from '../../../broker/spi/acr.js';
import { countryName } from '../../../verifier-claims/country-names.js';
import { parseIsoDate, toSpecDate } from '../../../verifier-claims/dates.js';
import { displayNames, namePartsOf } from '../../../verifier-claims/names.js';
import { ageThresholds, sdJwtAgeKey } from './wallet-credentials.js';
import type { WalletClaims } from './wallet-claims.js';

/**
 * The service's own reusable credential back into the claims of spec 2.1, as the document verifier gave them when
 * the document was verified: the credential carries ISO dates (YYYY-MM-DD) and ICAO codes (docs/vci contract), the
 * claims DD.MM.YYYY, the readable country names beside the codes, and given_name/family_name that agree with `name`
 * as the verifier's did. The credential keeps `name` (from DG11 when the chip had the full name, e.g. 'KÅRE NORDMANN')
 * and the MRZ identifiers ('NORDMANN', 'KAARE'), not the verifier's given/family name: they are divided out of `name`
 * where an identifier matches it (namePartsOf), and left out when none does rather than disagree with it; without
 * `name`, the identifiers themselves. The display_* forms follow them. Beyond spec 2.1: `verified_at`, the day the
 * document was verified (ISO date), and `authentication_sources` ['REUSED_CREDENTIAL'] (which sources the original
 * verification used is not in the credential). Only a passed verification is issued as a credential, so `authentication_result` is `pass`.
 * What the wallet did not disclose stays absent; the broker releases by scope (spec 2.3).
 */
export const REUSED_CREDENTIAL_SOURCE = 'REUSED_CREDENTIAL';

const MAX_TEXT = 200;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' && v.length <= MAX_TEXT ? v.trim() : undefined);
/** ICAO 9303-3 codes: three letters, or Germany's `D` (and its one- and two-letter fillers removed). */
const icao = (v: unknown): string | undefined => {
  const s = text(v);
  return s && /^[A-Z]{1,3}$/.test(s) ? s : undefined;
};
const isoDate = (v: unknown): string | undefined => {
  const s = text(v);
  return s && /^\d{4}(-\d{2}(-\d{2})?)?$/.test(s) && parseIsoDate(s) ? s : undefined;
};
/** verified_at is a full day (the contract: day only). */
const fullIsoDate = (v: unknown): string | undefined => {
  const s = isoDate(v);
  return s && s.length === 10 ? s : undefined;
};
const DOCUMENT_TYPES = new Set(['PASSPORT', 'ID_CARD', 'RESIDENCE_PERMIT', 'CREW_MEMBER_CERTIFICATE', 'VISA', 'DRIVERS_LICENSE', 'OTHER']);
const GENDERS = new Set(['FEMALE', 'MALE']);

export interface ReusedIdentityClaims extends WalletClaims {
  /** The day of the original verification (ISO), when disclosed and well formed. */
  verifiedAt?: string;
}

/* eslint-disable-next-line complexity -- one line per claim of spec 2.1, each releasing a disclosed value only when
   well formed (`&&` / `?:`); the branches are independent claims */
export function reusedIdentityClaims(values: Readonly<Record<string, unknown>>, scopes: readonly string[]): ReusedIdentityClaims {
  const claims: Record<string, unknown> = {};
  const put = (name: string, value: unknown) => {
    if (value !== undefined) claims[name] = value;
  };
  const documentType = text(values.document_type);
  put('document_type', documentType && DOCUMENT_TYPES.has(documentType) ? documentType : undefined);
  const issuing = icao(values.issuing_country);
  put('issuing_country', issuing);
  put('interpreted_issuing_country', issuing && countryName(issuing));
  put('document_number', text(values.document_number));
  const primary = text(values.primary_identifier);
  const secondary = text(values.secondary_identifier);
  put('primary_identifier', primary);
  put('secondary_identifier', secondary);
  const name = text(values.name);
  put('name', name);
  const nationality = icao(values.nationality);
  put('nationality', nationality);
  put('interpreted_nationality', nationality && countryName(nationality));
  const birthDate = isoDate(values.birthdate);
  put('birthdate', birthDate && toSpecDate(birthDate));
  put('personal_number', text(values.personal_number));
  const gender = text(values.gender);
  put('gender', gender && GENDERS.has(gender) ? gender : undefined);
  const expiry = fullIsoDate(values.date_of_expiry);
  put('date_of_expiry', expiry && toSpecDate(expiry));
  put('place_of_birth', text(values.place_of_birth));
  const level = values.facematch_level;
  put('facematch_level', Number.isInteger(level) && (level as number) >= 0 && (level as number) <= 9 ? level : undefined);
  put('authentication_sources', [REUSED_CREDENTIAL_SOURCE]);
  put('authentication_result', 'pass');
  const verifiedAt = fullIsoDate(values.verified_at);
  put('verified_at', verifiedAt);
  const parts = name === undefined ? { givenName: secondary, familyName: primary } : namePartsOf(name, primary, secondary);
  put('given_name', parts?.givenName || undefined);
  put('family_name', parts?.familyName || undefined);
  for (const [claim, value] of Object.entries(displayNames({ name, givenName: parts?.givenName, familyName: parts?.familyName }))) put(claim, value);
  // With a birth date the broker computes age_over_NN itself (on the day); without, the credential's statements.
  if (!birthDate) {
    const statements = values.age_equal_or_over as Record<string, unknown> | undefined;
    for (const nn of ageThresholds(scopes)) {
      const value = typeof statements === 'object' && statements !== null ? statements[sdJwtAgeKey(nn)] : undefined;
      if (typeof value === 'boolean') claims[`age_over_${nn}`] = value;
    }
  }
  return { claims, birthDate, verifiedAt };
}

export interface ReusedIdentityAcrInput {
  /** The merchant's acr_values. */
  acrValues: readonly string[];
  /** The credential's `assurance` ("high" or "substantial"). */
  assurance: unknown;
  /** The day of the original verification (ISO), when known. */
  verifiedAt?: string;
  /** The merchant's reused_identity_max_age_days. */
  maxAgeDays: number;
  now: Date;
}

/**
 * eIDAS high (spec 2.1 acr) for a reused credential only when the merchant asked for it, the original verification
 * reached it (`assurance: "high"`) and it is recent enough for this merchant: a credential proves who held the
 * document on `verified_at`, and the merchant decides how long that counts as high. A day in the future counts as
 * nothing (the issuer would not write one).
 */
export function reusedIdentityAcr(input: ReusedIdentityAcrInput): string | undefined {
  if (!input.acrValues.includes(ACR_REQUEST_HIGH) || input.assurance !== 'high' || !input.verifiedAt) return undefined;
  const ageDays = (Date.parse(input.now.toISOString().slice(0, 10)) - Date.parse(input.verifiedAt)) / 86_400_000;
  return Number.isFinite(ageDays) && ageDays >= 0 && ageDays <= input.maxAgeDays ? ACR_EIDAS_HIGH : undefined;
}
