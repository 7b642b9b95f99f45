/**
 * What the verified-document-identity credential states, from a passed verification record: the verifier claims of
 * spec 2.1 that identify the person, with ISO 8601 dates (the credential's own format; the wallet scheme turns them
 * back into spec 2.1's DD.MM.YYYY), age statements as in the EU PID, when and how well the document was verified, and
 * the evidence summary (under which trust framework, what evidence, when). Pure: `now` and the framework are passed in. Every claim here becomes a disclosure of its own; what the record lacks stays absent.
 */
import { ageOverClaims } from '../../verifier-claims/age.js';
import { parseIsoDate } from '../../verifier-claims/dates.js';
import type { VerifiedIdentityClaims } from '@identity-broker/eu-wallet';

/** The age thresholds stated (the EU PID's usual set); a merchant asking another age gets the birth date instead. */
export const AGE_STATEMENTS = ['12', '14', '16', '18', '21', '65'] as const;

/** What of a verification record the credential is made from. */
export interface VerifiedDocument {
  claims: Readonly<Record<string, unknown>>;
  /** ISO date of birth, possibly partial ('YYYY-MM', 'YYYY'). */
  birthDate?: string;
  eidasHigh: boolean;
  /** ISO timestamp of the verification. */
  completedAt: string;
}

export interface CredentialContent {
  claims: VerifiedIdentityClaims;
  /** The latest expiry the content allows: the document's expiry, and the day an age statement would turn true. */
  validUntil?: Date;
}

const COPIED = [
  'document_type',
  'issuing_country',
  'document_number',
  'personal_number',
  'primary_identifier',
  'secondary_identifier',
  'name',
  'nationality',
  'gender',
  'place_of_birth',
] as const;

/**
 * `trustFramework`: the framework the verification is stated under, by the rule `verified_claims` uses (the SPI's
 * statedFramework), so that the credential and an ID token never name two frameworks for one verification.
 */
export function credentialContent(document: VerifiedDocument, now: Date, trustFramework: string): CredentialContent {
  const claims: Record<string, unknown> = {};
  for (const name of COPIED) {
    const value = document.claims[name];
    if (typeof value === 'string' && value !== '') claims[name] = value;
  }
  if (claims.gender !== 'FEMALE' && claims.gender !== 'MALE') delete claims.gender;
  const expiry = isoOfSpecDate(document.claims.date_of_expiry);
  if (expiry) claims.date_of_expiry = expiry;
  // A partial birth date (ICAO: day or month unknown) is no ISO day: the credential leaves it out (the age statements,
  // which take partial dates into account, still say what can be said).
  if (document.birthDate && /^\d{4}-\d{2}-\d{2}$/.test(document.birthDate) && parseIsoDate(document.birthDate)) claims.birthdate = document.birthDate;
  const statements = ageStatements(document.birthDate, now);
  if (Object.keys(statements).length) claims.age_equal_or_over = statements;
  if (typeof document.claims.facematch_level === 'number') claims.facematch_level = document.claims.facematch_level;
  claims.verified_at = document.completedAt.slice(0, 10);
  claims.assurance = document.eidasHigh ? 'high' : 'substantial';
  Object.assign(claims, evidenceSummary(document.completedAt, trustFramework));
  return { claims: claims as VerifiedIdentityClaims, validUntil: latestEnd(expiry, statements, document.birthDate) };
}

/** The latest expiry a credential of `document` could have now (an offer is made only while it is in the future). */
export function credentialValidUntil(document: VerifiedDocument, now: Date): Date | undefined {
  return latestEnd(isoOfSpecDate(document.claims.date_of_expiry), ageStatements(document.birthDate, now), document.birthDate);
}

function ageStatements(birthDate: string | undefined, now: Date): Record<string, boolean> {
  const ages = ageOverClaims(
    AGE_STATEMENTS.map((n) => `ageverify${n}`),
    birthDate,
    now,
  );
  return Object.fromEntries(AGE_STATEMENTS.filter((n) => `age_over_${n}` in ages).map((n) => [n, ages[`age_over_${n}`]]));
}

/** The document's expiry, and the day an age statement would turn true: the earlier of the two. */
function latestEnd(expiry: string | undefined, statements: Record<string, boolean>, birthDate: string | undefined): Date | undefined {
  const limits = [expiry ? endOfDay(expiry) : undefined, firstBirthdayMakingTrue(statements, birthDate)].filter((d): d is Date => d !== undefined);
  return limits.length ? new Date(Math.min(...limits.map((d) => d.getTime()))) : undefined;
}

/**
 * The evidence summary as three flat claims, each its own disclosure (docs/credential-issuer.md#the-evidence-summary):
 * a document the service examined, under `trustFramework`, at the second the verification completed (IDA's `time`).
 */
function evidenceSummary(completedAt: string, trustFramework: string): Partial<VerifiedIdentityClaims> {
  const completed = new Date(completedAt);
  const time = Number.isNaN(completed.getTime()) ? undefined : completed.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { verification_trust_framework: trustFramework, verification_evidence_type: 'document', ...(time ? { verification_time: time } : {}) };
}

/** 'DD.MM.YYYY' (spec 2.1) → 'YYYY-MM-DD'; a date with unknown parts ('XX') is left out. */
function isoOfSpecDate(value: unknown): string | undefined {
  const m = typeof value === 'string' ? /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(value) : null;
  if (!m) return undefined;
  const iso = `${m[3]}-${m[2]}-${m[1]}`;
  return parseIsoDate(iso) ? iso : undefined;
}

const endOfDay = (iso: string) => new Date(`${iso}T23:59:59Z`);

/**
 * A statement "not yet 18" stops being true on the 18th birthday: the credential ends before the earliest day any of
 * its false statements could turn true, so it never states an age that is no longer right.
 */
function firstBirthdayMakingTrue(statements: Record<string, boolean>, birthDate: string | undefined): Date | undefined {
  const birth = birthDate ? parseIsoDate(birthDate) : undefined;
  if (!birth) return undefined;
  const pending = Object.entries(statements)
    .filter(([, over]) => !over)
    .map(([age]) => Number(age));
  if (!pending.length) return undefined;
  const age = Math.min(...pending);
  // The earliest possible birthday (an unknown month or day counts from January, the 1st).
  return new Date(Date.UTC(birth.year + age, (birth.month ?? 1) - 1, birth.day ?? 1) - 1000);
}
