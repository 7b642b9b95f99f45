import { BadRequestError } from '../../common/errors/app-error.js';

/*
 * A merchant's request for `verified_claims` (OpenID Connect for Identity Assurance 1.0 §5.3-5.6, the syntax the
 * eKYC-IDA working group publishes as verified_claims_request.json), checked before any work is done for it: a
 * malformed request is invalid_request (§5.8 "Error handling", OIDC Core 3.1.2.6), whatever the rest of the request.
 * The checks also bound it: at most MAX_SETS claim sets, MAX_KEYS members per object, MAX_VALUES values per filter.
 */

export const MAX_SETS = 8;
const MAX_KEYS = 40;
const MAX_VALUES = 20;
const MAX_STRING = 300;
const EVIDENCE_TYPES = new Set(['document', 'electronic_record', 'vouch', 'electronic_signature']);
/** Elements of `verification` whose values carry dates (max_age) or may be filtered (value, values). */
const DATED = new Set(['time', 'date_of_issuance', 'date_of_expiry', 'created_at']);

/** One claim set as requested: its verification template and the claims asked for in it. */
export interface VerifiedClaimsRequest {
  verification: Record<string, unknown>;
  claims: Record<string, ClaimRequest | null>;
}

export interface ClaimRequest {
  essential?: boolean;
  purpose?: string;
  value?: unknown;
  values?: unknown[];
}

/** A request that breaks the syntax; its description is the merchant's to read (the engine's invalid_request carries it). */
export class VerifiedClaimsRequestError extends BadRequestError {}

const fail = (message: string): never => {
  throw new VerifiedClaimsRequestError(message);
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The claim sets of one target (`id_token` or `userinfo`); [] when none are requested. Throws VerifiedClaimsRequestError. */
export function verifiedClaimsSets(target: unknown, where: string): VerifiedClaimsRequest[] {
  if (!isObject(target) || target.verified_claims === undefined) return [];
  const raw = target.verified_claims;
  const sets = Array.isArray(raw) ? raw : [raw];
  if (!sets.length) fail(`${where}.verified_claims must not be an empty array`);
  if (sets.length > MAX_SETS) fail(`${where}.verified_claims has more than ${MAX_SETS} claim sets`);
  return sets.map((set, i) => claimSet(set, Array.isArray(raw) ? `${where}.verified_claims[${i}]` : `${where}.verified_claims`));
}

function claimSet(set: unknown, at: string): VerifiedClaimsRequest {
  if (!isObject(set)) return fail(`${at} must be an object`);
  const extra = Object.keys(set).filter((k) => k !== 'verification' && k !== 'claims');
  if (extra.length) fail(`${at} has members other than verification and claims: ${extra.slice(0, 3).join(', ')}`);
  if (!isObject(set.verification)) fail(`${at}.verification must be an object`);
  if (!isObject(set.claims) || !Object.keys(set.claims).length) fail(`${at}.claims must be an object naming at least one claim`);
  const verification = set.verification as Record<string, unknown>;
  const claims = set.claims as Record<string, unknown>;
  if (!('trust_framework' in verification)) fail(`${at}.verification.trust_framework is required`);
  element(verification, `${at}.verification`, 0);
  bounded(claims, `${at}.claims`);
  for (const [name, request] of Object.entries(claims)) claimRequest(request, `${at}.claims.${name}`);
  return { verification, claims: claims as Record<string, ClaimRequest | null> };
}

/** A template object within `verification`: each member an element request, a nested object, or an array of templates. */
function element(template: Record<string, unknown>, at: string, depth: number): void {
  bounded(template, at);
  if (depth > 4) fail(`${at} is nested too deeply`);
  for (const [name, value] of Object.entries(template)) {
    const here = `${at}.${name}`;
    if (name === 'evidence') evidence(value, here, depth);
    else if (name === 'check_details' || name === 'assurance_details' || name === 'evidence_ref') templates(value, here, depth);
    else if (value === null) continue;
    else if (!isObject(value)) fail(`${here} must be null or an object`);
    else if (isRequestLeaf(value)) leaf(value, here, DATED.has(name));
    else element(value, here, depth + 1);
  }
}

function evidence(value: unknown, at: string, depth: number): void {
  templates(value, at, depth);
  (value as Record<string, unknown>[]).forEach((entry, i) => {
    const type = entry.type;
    // §5.4: an evidence filter names its type with `value`; `values` is not allowed there.
    if (!isObject(type) || typeof type.value !== 'string' || !EVIDENCE_TYPES.has(type.value))
      fail(`${at}[${i}].type must be {"value": …} with one of ${[...EVIDENCE_TYPES].join(', ')}`);
    if ((type as Record<string, unknown>).values !== undefined) fail(`${at}[${i}].type must not use values`);
  });
}

function templates(value: unknown, at: string, depth: number): void {
  if (!Array.isArray(value) || !value.length) return fail(`${at} must be a non-empty array`);
  if (value.length > MAX_SETS) fail(`${at} has more than ${MAX_SETS} entries`);
  value.forEach((entry, i) => (isObject(entry) ? element(entry, `${at}[${i}]`, depth + 1) : fail(`${at}[${i}] must be an object`)));
}

/** An element request: only the members OIDC Core 5.5.1 and IDA define (essential, value, values, max_age, purpose). */
const LEAF_MEMBERS = new Set(['essential', 'value', 'values', 'max_age', 'purpose']);
const isRequestLeaf = (value: Record<string, unknown>) => !Object.keys(value).length || Object.keys(value).some((k) => LEAF_MEMBERS.has(k));

function leaf(value: Record<string, unknown>, at: string, dated: boolean): void {
  claimRequest(value, at);
  if (value.max_age !== undefined && (!dated || !Number.isSafeInteger(value.max_age) || (value.max_age as number) < 0))
    fail(dated ? `${at}.max_age must be a whole number of seconds, 0 or more` : `${at}.max_age applies to dates only`);
}

function claimRequest(request: unknown, at: string): void {
  if (request === null) return;
  if (!isObject(request)) return fail(`${at} must be null or an object`);
  bounded(request, at);
  if (request.essential !== undefined && typeof request.essential !== 'boolean') fail(`${at}.essential must be true or false`);
  if (request.purpose !== undefined) {
    const length = typeof request.purpose === 'string' ? [...request.purpose].length : -1;
    // IDA §5.6 (purpose): 3 to 300 characters, else invalid_request.
    if (length < 3 || length > MAX_STRING) fail(`${at}.purpose must be a string of 3 to 300 characters`);
  }
  if (request.value !== undefined && !scalar(request.value)) fail(`${at}.value must be a string, number or boolean`);
  if (request.values !== undefined) {
    const values = request.values;
    if (!Array.isArray(values) || !values.length || values.length > MAX_VALUES || !values.every(scalar))
      fail(`${at}.values must be an array of 1 to ${MAX_VALUES} strings, numbers or booleans`);
  }
}

const scalar = (v: unknown) => (typeof v === 'string' && v.length <= MAX_STRING) || typeof v === 'number' || typeof v === 'boolean';

function bounded(value: Record<string, unknown>, at: string): void {
  if (Object.keys(value).length > MAX_KEYS) fail(`${at} has more than ${MAX_KEYS} members`);
}
