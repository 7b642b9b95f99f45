import { countryName, icaoCodeOfAlpha2 } from '../../../verifier-claims/country-names.js';
import { parseIsoDate, toSpecDate } from '../../../verifier-claims/dates.js';
import { displayNames } from '../../../verifier-claims/names.js';
import { ageThresholds, mdocAgeElement, sdJwtAgeKey, type WalletCredentialKind } from './wallet-credentials.js';

/** What a verified presentation gives the broker: the claims of spec 2.1 and 2.4 it can fill, and the birth date. */
export interface WalletClaims {
  claims: Record<string, unknown>;
  /** ISO date, for ageverifyNN when the birth date was asked (profile). */
  birthDate?: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const isoDate = (v: unknown): string | undefined => {
  const s = text(v)?.slice(0, 10);
  return s && parseIsoDate(s) ? s : undefined;
};
const firstCountry = (v: unknown): string | undefined => text(Array.isArray(v) ? v[0] : v);

/**
 * The claims merchants already read, from a PID (SD-JWT VC or mdoc) or an mDL, named as for the document verifier so
 * that a merchant changes nothing: family and given names as `family_name`/`primary_identifier` and
 * `given_name`/`secondary_identifier` (and `name`, and the display_* forms of the three); the birth date as spec 2.1's DD.MM.YYYY; countries as ICAO
 * codes with their readable names; `age_over_NN` from the wallet's own age statement when no birth date was asked.
 * `values` is the SD-JWT VC's disclosed claims, or the one namespace of the mdoc. What the wallet did not present
 * stays absent; the broker then releases by scope (spec 2.3) as for every scheme.
 */
export function walletClaims(kind: WalletCredentialKind, values: Readonly<Record<string, unknown>>, scopes: readonly string[]): WalletClaims {
  const claims: Record<string, unknown> = { document_type: kind === 'mdl' ? 'DRIVERS_LICENSE' : 'EU_PID' };
  const put = (name: string, value: unknown) => {
    if (value !== undefined) claims[name] = value;
  };
  const family = text(values.family_name);
  const given = text(values.given_name);
  put('family_name', family);
  put('primary_identifier', family);
  put('given_name', given);
  put('secondary_identifier', given);
  const name = family || given ? [given, family].filter(Boolean).join(' ') : undefined;
  put('name', name);
  // The credential's names are usually in mixed case already ('Erika'): displayNames then keeps them as written.
  for (const [claim, value] of Object.entries(displayNames({ name, givenName: given, familyName: family }))) put(claim, value);
  const birthDate = isoDate(kind === 'pid_sd_jwt' ? values.birthdate : values.birth_date);
  put('birthdate', birthDate && toSpecDate(birthDate));
  const issuing = icaoOf(text(values.issuing_country));
  put('issuing_country', issuing);
  put('interpreted_issuing_country', issuing && countryName(issuing));
  const nationality = icaoOf(firstCountry(kind === 'pid_sd_jwt' ? values.nationalities : values.nationality));
  put('nationality', nationality);
  put('interpreted_nationality', nationality && countryName(nationality));
  if (kind === 'mdl') put('document_number', text(values.document_number));
  if (!birthDate) {
    const statements = kind === 'pid_sd_jwt' ? (values.age_equal_or_over as Record<string, unknown> | undefined) : values;
    for (const nn of ageThresholds(scopes)) {
      const value = kind === 'pid_sd_jwt' ? statements?.[sdJwtAgeKey(nn)] : statements?.[mdocAgeElement(nn)];
      if (typeof value === 'boolean') claims[`age_over_${nn}`] = value;
    }
  }
  return { claims, birthDate };
}

/** Wallet credentials carry ISO 3166-1 alpha-2 codes; the broker's claims carry ICAO's (an unknown code is left out). */
const icaoOf = (alpha2: string | undefined): string | undefined => (alpha2 && /^[A-Za-z]{2}$/.test(alpha2) ? icaoCodeOfAlpha2(alpha2) : undefined);
