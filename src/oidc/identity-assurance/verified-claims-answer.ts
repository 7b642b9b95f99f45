import type { VerifiedClaimsRequest } from './verified-claims-request.js';

/*
 * The answer to each requested claim set (OpenID Connect for Identity Assurance 1.0 §5.4-5.8): the verification's
 * members the merchant asked for and nothing more (§6 "The OP shall not provide the RP with any data it did not
 * request"), the claims asked for that the login has, and no set at all where the verification fails one of the
 * merchant's constraints (value, values, max_age within `verification`: §5.8 "Data not matching requirements") or no
 * requested claim is left. Never an error: what cannot be delivered is omitted.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const CONSTRAINTS = ['value', 'values', 'max_age'];
/** Members an answer object always carries when it carries the object at all (required by the schema). */
const REQUIRED = ['trust_framework', 'type', 'check_method'];

export interface VerifiedClaimsSet {
  verification: Json;
  claims: Json;
}

/** The answer to one claim set, or undefined when it is omitted. `verification` is everything the login can state. */
export function answerClaimSet(request: VerifiedClaimsRequest, verification: Json, claims: Json, now: Date): VerifiedClaimsSet | undefined {
  const stated = project(request.verification, verification, now);
  if (!stated) return undefined;
  const released: Json = {};
  for (const [name, wanted] of Object.entries(request.claims)) {
    const value = claims[name];
    if (value !== undefined && satisfied(wanted, value, now)) released[name] = value;
  }
  if (!Object.keys(released).length) return undefined;
  return { verification: stated, claims: released };
}

/** Is this element request one that filters (value, values, max_age), anywhere within it? */
function constrains(template: unknown): boolean {
  if (Array.isArray(template)) return template.some(constrains);
  if (!isObject(template)) return false;
  return Object.entries(template).some(([k, v]) => CONSTRAINTS.includes(k) || (isObject(v) || Array.isArray(v) ? constrains(v) : false));
}

const isLeaf = (t: Json) => !Object.keys(t).length || ['essential', 'value', 'values', 'max_age', 'purpose'].some((k) => k in t);

/** The requested part of `data`, or undefined when `data` fails a constraint of `template`. */
function project(template: Json, data: Json, now: Date): Json | undefined {
  const out: Json = {};
  for (const key of REQUIRED) if (data[key] !== undefined) out[key] = data[key];
  for (const [key, wanted] of Object.entries(template)) {
    const value = data[key];
    if (Array.isArray(wanted)) {
      const kept = Array.isArray(value) ? value.flatMap((item) => firstMatch(wanted, item, now)) : [];
      if (kept.length) out[key] = kept;
      else if (constrains(wanted)) return undefined;
    } else if (wanted === null || (isObject(wanted) && isLeaf(wanted))) {
      if (!satisfied(wanted, value, now)) return undefined;
      if (value !== undefined) out[key] = value;
    } else if (isObject(wanted)) {
      const inner = isObject(value) ? project(wanted, value, now) : undefined;
      if (inner && Object.keys(inner).length) out[key] = inner;
      else if (constrains(wanted)) return undefined;
    }
  }
  return out;
}

/** An array of filter templates (evidence, check_details): an item is kept, as the first template it matches shows it. */
function firstMatch(templates: unknown[], item: unknown, now: Date): Json[] {
  if (!isObject(item)) return [];
  for (const template of templates) {
    if (!isObject(template)) continue;
    const shown = project(template, item, now);
    if (shown) return [shown];
  }
  return [];
}

/** OIDC Core 5.5.1 value/values, IDA §5.5.2 max_age (seconds since the date; a day counts to its last second). */
function satisfied(request: unknown, value: unknown, now: Date): boolean {
  if (!isObject(request)) return true;
  if (request.value !== undefined && !equal(request.value, value)) return false;
  if (Array.isArray(request.values) && !request.values.some((v) => equal(v, value))) return false;
  if (typeof request.max_age === 'number') {
    const at = typeof value === 'string' ? lastSecondOf(value) : NaN;
    if (!Number.isFinite(at) || now.getTime() - at > request.max_age * 1000) return false;
  }
  return true;
}

const equal = (wanted: unknown, value: unknown) => value !== undefined && (wanted === value || (Array.isArray(value) && value.includes(wanted)));

function lastSecondOf(date: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(date)) return Date.parse(`${date}T23:59:59Z`);
  return Date.parse(date);
}
