/**
 * Turns what was read from an ICAO 9303 document, plus the verification outcome, into the
 * verifier claims of spec 2.1 in their spec formats. Pure: no I/O, `now` is passed in.
 * Scope gating is not applied here; the broker releases claims by scope (see claim-table.ts).
 */
import { countryName } from './country-names.js';
import { birthDateFromDg11, birthDateFromMrz, expiryDateFromMrz, toSpecDate } from './dates.js';
import { documentType } from './document-type.js';
import { displayNames, holderNames, otherIdentifier, parseMrzName } from './names.js';

export interface DocumentHolderData {
  /** MRZ document code, e.g. 'P', 'PO', 'I', 'ID', 'AC', 'IR', 'V', 'D' (driver licence), '<' padding removed */
  documentCode: string;
  /** ICAO 3-letter code (may be 'D') */
  issuingState: string;
  documentNumber: string;
  /** raw MRZ name field, e.g. 'ERIKSSON<<ANNA<MARIA' (with its filler when available, for truncation detection) */
  mrzName: string;
  nationality: string;
  /** YYMMDD */
  mrzDateOfBirth: string;
  sex: 'M' | 'F' | '<' | 'X';
  /** YYMMDD */
  mrzDateOfExpiry: string;
  /** MRZ optional data (may hold the personal number in some states) */
  optionalData?: string;
  dg11?: {
    /** 'PRIMARY<<SECONDARY' */
    fullName?: string;
    otherNames?: string[];
    personalNumber?: string;
    /** YYYYMMDD */
    fullDateOfBirth?: string;
    /** components of the place of birth (e.g. town, country) */
    placeOfBirth?: string[];
  };
}

/**
 * Spec 2.1's four sources, plus one extension of ours: `SDK_NFC_NO_CLONE_PROOF` beside `SDK_NFC` when the chip's
 * SOD lists neither Active nor Chip Authentication, so nothing proved the chip is not a copy (ICAO 9303-11 §6.1,
 * §6.2). Such a document can pass, never with eIDAS high; a merchant that needs genuine chips reads it here.
 */
export type AuthenticationSource = 'SDK_NFC' | 'SDK_NFC_NO_CLONE_PROOF' | 'SDK_FACESCAN' | 'REMOTE' | 'SDK_OCR';

export interface VerificationOutcome {
  result: 'pass' | 'fail';
  /** spec 7.3 values and our own, empty on pass */
  explanations: string[];
  /** 0..9 (spec 2.2) */
  facematchLevel: number;
  sources: AuthenticationSource[];
  authFilesUrl?: string;
}

/** OIDC claim name -> value; claims without a value are absent, never null or ''. */
export type VerifierClaims = Record<string, string | number | string[]>;

/**
 * Every spec 2.1 claim that has a value (acr excluded: the broker sets it), plus the standard OIDC
 * given_name/family_name, which agree with `name` (all three from DG11 when its full name divides into
 * primary and secondary identifier, else from the MRZ: holderNames), and the same three in the case a
 * person writes them (display_name, display_given_name, display_family_name: displayNames).
 * Throws RangeError for a face match level outside 0..9 (an upstream bug, not user input).
 */
export function mapVerifierClaims(holder: DocumentHolderData, outcome: VerificationOutcome, now: Date): VerifierClaims {
  if (!Number.isInteger(outcome.facematchLevel) || outcome.facematchLevel < 0 || outcome.facematchLevel > 9) {
    throw new RangeError(`facematch level must be an integer 0..9, got ${outcome.facematchLevel}`);
  }
  const claims: VerifierClaims = {};
  const put = (name: string, value: string | number | string[] | undefined): void => {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return;
    claims[name] = value;
  };
  const dg11 = holder.dg11 ?? {};
  const { primaryIdentifier, secondaryIdentifier } = parseMrzName(holder.mrzName);
  const names = holderNames(holder.mrzName, dg11.fullName);
  const issuingCountry = stripFiller(holder.issuingState);
  const nationality = stripFiller(holder.nationality);
  const birthIso = (dg11.fullDateOfBirth === undefined ? undefined : birthDateFromDg11(dg11.fullDateOfBirth)) ?? birthDateFromMrz(holder.mrzDateOfBirth, now);
  const expiryIso = expiryDateFromMrz(holder.mrzDateOfExpiry, now);

  put('document_type', documentType(holder.documentCode));
  put('issuing_country', issuingCountry);
  put('interpreted_issuing_country', countryName(issuingCountry));
  put('document_number', stripFiller(holder.documentNumber));
  put('primary_identifier', primaryIdentifier);
  put('secondary_identifier', secondaryIdentifier);
  put('nationality', nationality);
  put('interpreted_nationality', countryName(nationality));
  put('birthdate', birthIso === undefined ? undefined : toSpecDate(birthIso));
  put('personal_number', personalNumber(holder));
  put('gender', GENDER[holder.sex]);
  put('date_of_expiry', expiryIso === undefined ? undefined : toSpecDate(expiryIso));
  put('name', names.name);
  put('place_of_birth', placeOfBirth(dg11.placeOfBirth));
  put('facematch_level', outcome.facematchLevel);
  put('auth_files_url', outcome.authFilesUrl);
  put('authentication_sources', [...new Set(outcome.sources)]);
  put('other_identifier', otherIdentifier(holder.mrzName, dg11.fullName, dg11.otherNames));
  put('authentication_result', outcome.result);
  put('result_explanation', resultExplanation(outcome));
  put('given_name', names.givenName);
  put('family_name', names.familyName);
  for (const [claim, value] of Object.entries(displayNames(names))) put(claim, value);
  return outcome.result === 'fail' ? failureClaims(claims) : claims;
}

/**
 * What a failed verification may tell the merchant: that it failed, why, and which kind of document from
 * which state was presented. Never the identity attributes (names, birth date, document and personal
 * numbers, nationality, expiry…): they come from a document that did not verify, possibly a forgery
 * naming someone else.
 */
const FAILURE_CLAIMS = ['authentication_result', 'result_explanation', 'document_type', 'issuing_country', 'interpreted_issuing_country'];

function failureClaims(claims: VerifierClaims): VerifierClaims {
  return Object.fromEntries(FAILURE_CLAIMS.filter((name) => name in claims).map((name) => [name, claims[name]]));
}

/** 'F'/'M' only; '<' (unspecified) and 'X' (ICAO "unspecified", used for non-binary) give no claim. */
const GENDER: Readonly<Record<string, string>> = Object.freeze({ F: 'FEMALE', M: 'MALE' });

/**
 * DG11 personal number when the chip has one; otherwise the MRZ optional data, but only for
 * passports: ICAO 9303-4 defines the TD3 optional data field as "personal number or other optional
 * data", while in ID cards (TD1/TD2) the field is free for any state-defined use and must not be
 * released as a personal number. Leading and trailing filler is removed; inner characters are
 * kept as read (the spec allows special characters).
 */
function personalNumber(holder: DocumentHolderData): string | undefined {
  const fromChip = holder.dg11?.personalNumber === undefined ? '' : trimFiller(holder.dg11.personalNumber);
  if (fromChip) return fromChip;
  if (!holder.documentCode.toUpperCase().startsWith('P') || holder.optionalData === undefined) return undefined;
  return trimFiller(holder.optionalData) || undefined;
}

/** DG11 place of birth components -> 'TOWN, COUNTRY'; undefined when the chip has none. */
function placeOfBirth(parts: readonly string[] | undefined): string | undefined {
  const cleaned = (parts ?? []).map((p) => p.replace(/[<\s]+/g, ' ').trim()).filter(Boolean);
  return cleaned.length ? cleaned.join(', ') : undefined;
}

/**
 * On fail: the explanations, de-duplicated, in the order given, joined with ',' (no spaces), so a
 * single reason is exactly a spec 7.3 value and several are machine-splittable the same way the
 * SAML rendering joins arrays. On pass: never present, even if explanations were passed.
 */
function resultExplanation(outcome: VerificationOutcome): string | undefined {
  if (outcome.result !== 'fail') return undefined;
  const reasons = [...new Set(outcome.explanations.map((e) => e.trim()).filter(Boolean))];
  return reasons.length ? reasons.join(',') : undefined;
}

/** Removes MRZ filler everywhere ('D<<' -> 'D', 'L898902C3<' -> 'L898902C3'). */
function stripFiller(text: string): string {
  return text.replace(/</g, '').trim();
}

/** Removes MRZ filler and blanks at both ends only ('ZE184226B<<<<<' -> 'ZE184226B'). */
function trimFiller(text: string): string {
  return text.replace(/^[<\s]+|[<\s]+$/g, '');
}
