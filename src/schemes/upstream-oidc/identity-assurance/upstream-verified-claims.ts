import { BadRequestError } from '../../../common/errors/app-error.js';

/*
 * An upstream's own `verified_claims` (OpenID Connect for Identity Assurance 1.0 §5), checked by hand against the
 * shape of OpenID Identity Assurance Schema Definition 1.0 before anything of it is read: bounded first (claim sets,
 * nesting, size), then the members the scheme uses. A check that fails names the place and the rule, never a value,
 * so that the reason can be logged without personal data.
 */

/** At most this many claim sets (§5.7 allows an array); the first one is used. */
export const MAX_CLAIM_SETS = 4;
/** Nesting of objects and arrays, the element itself at 1: the schema's deepest (an array of sets down to evidence_ref's evidence_metadata) is 9. */
export const MAX_DEPTH = 10;
/** Characters of the element as JSON. */
export const MAX_CHARS = 16_384;
/** Evidence entries per verification, and checks per evidence. */
const MAX_ENTRIES = 10;
/** Identifiers the operator's IDA_TRUST_FRAMEWORKS can name are 1-200 characters; a longer one never matches. */
const MAX_IDENTIFIER = 200;
/** Evidence types of Schema Definition §5.4.4 (the `evidence` definition's `type` enum). */
const EVIDENCE_TYPES = ['document', 'electronic_record', 'vouch', 'electronic_signature'] as const;

type Json = Record<string, unknown>;

/** The first claim set's `verification`, structurally valid; or why the element is ignored. */
export type UpstreamVerifiedClaimsCheck = { verification: Json } | { problem: string };

/** Caught below, never rendered: an AppError like every error class (one error base), the upstream's bad input. */
class Malformed extends BadRequestError {}
const fail = (problem: string): never => {
  throw new Malformed(problem);
};
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkUpstreamVerifiedClaims(raw: unknown): UpstreamVerifiedClaimsCheck {
  try {
    const sets = Array.isArray(raw) ? raw : [raw];
    if (!sets.length || sets.length > MAX_CLAIM_SETS) fail(`verified_claims must hold 1 to ${MAX_CLAIM_SETS} claim sets`);
    if (!withinDepth(raw, 1)) fail(`verified_claims is nested deeper than ${MAX_DEPTH}`);
    // Measured only once the depth is known to be small: JSON.stringify recurses.
    if (JSON.stringify(raw).length > MAX_CHARS) fail(`verified_claims is longer than ${MAX_CHARS} characters`);
    sets.forEach((set, i) => claimSet(set, Array.isArray(raw) ? `verified_claims[${i}]` : 'verified_claims'));
    return { verification: (sets[0] as Json).verification as Json };
  } catch (e) {
    if (e instanceof Malformed) return { problem: e.description };
    throw e;
  }
}

/** Stops at the first container beyond MAX_DEPTH, so the recursion never goes deeper than that itself. */
function withinDepth(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth > MAX_DEPTH) return false;
  return Object.values(value).every((child) => withinDepth(child, depth + 1));
}

function claimSet(set: unknown, at: string): void {
  if (!isObject(set)) fail(`${at} must be an object`);
  const { verification, claims } = set as Json;
  // Schema Definition: `verification` and `claims` are both required; the claims themselves are never used.
  if (!isObject(claims)) fail(`${at}.claims must be an object`);
  if (!isObject(verification)) return fail(`${at}.verification must be an object`);
  const here = `${at}.verification`;
  const framework = verification.trust_framework;
  if (typeof framework !== 'string' || !framework || framework.length > MAX_IDENTIFIER)
    fail(`${here}.trust_framework must be a string of 1 to ${MAX_IDENTIFIER} characters`);
  text(verification, 'assurance_level', here);
  text(verification, 'verification_process', here);
  dateTime(verification, 'time', here);
  if (verification.evidence !== undefined) list(verification.evidence, `${here}.evidence`).forEach((entry, i) => evidence(entry, `${here}.evidence[${i}]`));
}

/** A non-empty array (minItems 1 throughout the schema) of at most MAX_ENTRIES objects. */
function list(value: unknown, at: string): Json[] {
  if (!Array.isArray(value) || !value.length || value.length > MAX_ENTRIES) return fail(`${at} must be an array of 1 to ${MAX_ENTRIES} entries`);
  value.forEach((entry, i) => isObject(entry) || fail(`${at}[${i}] must be an object`));
  return value as Json[];
}

function evidence(entry: Json, at: string): void {
  const type = entry.type;
  if (!EVIDENCE_TYPES.includes(type as (typeof EVIDENCE_TYPES)[number])) fail(`${at}.type must be one of ${EVIDENCE_TYPES.join(', ')}`);
  if (entry.check_details !== undefined)
    list(entry.check_details, `${at}.check_details`).forEach((check, i) => evidenceCheck(check, `${at}.check_details[${i}]`));
  if (type === 'document' && entry.document_details !== undefined) documentDetails(entry.document_details, `${at}.document_details`);
  if (type === 'electronic_record' && entry.record !== undefined) record(entry.record, `${at}.record`);
  if (type === 'electronic_signature') for (const name of ['signature_type', 'issuer', 'serial_number']) required(entry, name, at);
  if (type === 'vouch' && entry.attestation !== undefined) {
    if (!isObject(entry.attestation)) fail(`${at}.attestation must be an object`);
    required(entry.attestation as Json, 'type', `${at}.attestation`);
  }
}

function evidenceCheck(check: Json, at: string): void {
  required(check, 'check_method', at);
  for (const name of ['check_id', 'organization']) text(check, name, at);
  dateTime(check, 'time', at);
}

function documentDetails(details: unknown, at: string): void {
  if (!isObject(details)) return fail(`${at} must be an object`);
  required(details, 'type', at);
  for (const name of ['document_number', 'serial_number']) text(details, name, at);
  for (const name of ['date_of_issuance', 'date_of_expiry']) date(details, name, at);
  if (details.issuer !== undefined) address(details.issuer, `${at}.issuer`);
}

function record(value: unknown, at: string): void {
  if (!isObject(value)) return fail(`${at} must be an object`);
  required(value, 'type', at);
  dateTime(value, 'created_at', at);
  date(value, 'date_of_expiry', at);
  if (value.source !== undefined) address(value.source, `${at}.source`);
}

/** An issuer or source: an object whose members (name, country, country_code, address parts) are strings. */
function address(value: unknown, at: string): void {
  if (!isObject(value)) return fail(`${at} must be an object`);
  for (const name of Object.keys(value)) text(value, name, at);
}

function required(holder: Json, name: string, at: string): void {
  if (typeof holder[name] !== 'string' || !holder[name]) fail(`${at}.${name} must be a non-empty string`);
}

function text(holder: Json, name: string, at: string): void {
  if (holder[name] !== undefined && typeof holder[name] !== 'string') fail(`${at}.${name} must be a string`);
}

function dateTime(holder: Json, name: string, at: string): void {
  if (holder[name] !== undefined && !isDateTime(holder[name])) fail(`${at}.${name} must be an RFC 3339 date-time`);
}

function date(holder: Json, name: string, at: string): void {
  if (holder[name] !== undefined && !isDate(holder[name])) fail(`${at}.${name} must be an ISO 8601 date (YYYY-MM-DD)`);
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * RFC 3339 §5.6 `date-time`, as the schema's `format` reads it: a real calendar day and time of day (Date.parse alone
 * takes 30 February and 24:00), a time zone, and a year that stays four digits in UTC (what `toISOString` then writes).
 */
export function isDateTime(value: unknown): value is string {
  const m = typeof value === 'string' ? DATE_TIME.exec(value) : null;
  if (!m || !isDate(m[1])) return false;
  const [hours, minutes, seconds, offsetHours, offsetMinutes] = m.slice(2).map((part) => Number(part ?? 0));
  if (hours > 23 || minutes > 59 || seconds > 59 || offsetHours > 23 || offsetMinutes > 59) return false;
  const ms = Date.parse(value as string);
  return Number.isFinite(ms) && /^\d{4}-/.test(new Date(ms).toISOString());
}

/** RFC 3339 `full-date`: YYYY-MM-DD of a day that exists. */
export function isDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().startsWith(value);
}
