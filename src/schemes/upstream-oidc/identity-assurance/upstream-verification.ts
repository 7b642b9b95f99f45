import { randomUUID } from 'node:crypto';
import type {
  DocumentEvidence,
  ElectronicRecordEvidence,
  EvidenceCheck,
  IdentityVerification,
  VerificationEvidence,
} from '../../../broker/spi/identity-assurance/identity-verification.js';
import { CHECK_METHODS, EID_LOGIN_RECORD } from '../../../broker/spi/identity-assurance/predefined-values.js';
import { checkUpstreamVerifiedClaims, isDate, isDateTime, isObject } from './upstream-verified-claims.js';

/*
 * What an upstream login states in `verified_claims` (OpenID Connect for Identity Assurance 1.0; docs/upstream-oidc.md):
 * the upstream's own verification when it sent a well-formed one, copied member by member (only the members the
 * Schema Definition 1.0 names and the SPI carries, each string bounded), else the login itself as an electronic record
 * the upstream keeps. The trust framework the upstream asserts is only `asserted`: the core believes it within the
 * operator's IDA_TRUST_FRAMEWORKS entry for the scheme, never above it. The upstream's verified claims themselves are
 * never used: the core states the login's plain (mapped) claims.
 */

/** A copied string longer than this is left out (an identifier cut short would name something else). */
export const MAX_TEXT = 200;

type Json = Record<string, unknown>;

export interface UpstreamLogin {
  /** The upstream's `verified_claims` claim (ID token over user-info), undefined when it sent none. */
  verifiedClaims: unknown;
  /** The upstream's issuer identifier: the organization that did the checks, the source of the record. */
  issuer: string;
  /** The login's auth time as the broker releases it (upstream-auth-time.ts). */
  authTime: Date;
  test: boolean;
}

export interface UpstreamVerificationResult {
  verification: IdentityVerification;
  /** Why the upstream's `verified_claims` were ignored (a place and a rule, never a value), for the log. */
  ignored?: string;
}

export function upstreamVerification(login: UpstreamLogin): UpstreamVerificationResult {
  const authTime = login.authTime.toISOString();
  if (login.verifiedClaims === undefined) return { verification: fallback(login, randomUUID(), authTime) };
  const checked = checkUpstreamVerifiedClaims(login.verifiedClaims);
  if ('problem' in checked) return { verification: fallback(login, randomUUID(), authTime), ignored: checked.problem };
  const upstream = checked.verification;
  const process = bounded(upstream.verification_process) ?? randomUUID();
  const evidence = Array.isArray(upstream.evidence) ? upstream.evidence.flatMap((entry: Json) => copyEvidence(entry, login.issuer)) : [];
  const level = bounded(upstream.assurance_level);
  return {
    verification: {
      time: isDateTime(upstream.time) ? iso(upstream.time) : authTime,
      process,
      test: login.test,
      // vouch and electronic_signature have no place in the SPI: with nothing else left, the login itself is the evidence.
      evidence: evidence.length ? evidence : [loginRecord(login.issuer, process, authTime)],
      asserted: { trust_framework: upstream.trust_framework as string, ...(level ? { assurance_level: level } : {}) },
    },
  };
}

/** The login without a statement of the upstream's: the person authenticated with the eID the upstream issued. */
function fallback(login: UpstreamLogin, process: string, authTime: string): IdentityVerification {
  return { time: authTime, process, test: login.test, evidence: [loginRecord(login.issuer, process, authTime)] };
}

function loginRecord(issuer: string, process: string, authTime: string): ElectronicRecordEvidence {
  return {
    type: 'electronic_record',
    check_details: [{ check_method: CHECK_METHODS.authentication, check_id: `${process}.upstream-login`, organization: issuer, time: authTime }],
    record: { type: EID_LOGIN_RECORD, source: { name: issuer } },
  };
}

function copyEvidence(entry: Json, issuer: string): VerificationEvidence[] {
  const checks = copyChecks(entry.check_details, issuer);
  if (entry.type === 'document') {
    const details = copyDocumentDetails(entry.document_details);
    const copied: DocumentEvidence = { type: 'document', ...(checks ? { check_details: checks } : {}), ...(details ? { document_details: details } : {}) };
    return [copied];
  }
  if (entry.type === 'electronic_record') {
    const record = copyRecord(entry.record);
    // The SPI's electronic record names its record; one without (or with a type too long to keep) says nothing usable.
    return record ? [{ type: 'electronic_record', ...(checks ? { check_details: checks } : {}), record }] : [];
  }
  return [];
}

/** The checks, each naming who did it: the upstream, unless the upstream names another organization. */
function copyChecks(value: unknown, issuer: string): EvidenceCheck[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const checks = value.flatMap((check: Json): EvidenceCheck[] => {
    const method = bounded(check.check_method);
    if (!method) return [];
    const id = bounded(check.check_id);
    return [
      {
        check_method: method,
        ...(id ? { check_id: id } : {}),
        organization: bounded(check.organization) ?? issuer,
        ...(isDateTime(check.time) ? { time: iso(check.time) } : {}),
      },
    ];
  });
  return checks.length ? checks : undefined;
}

function copyDocumentDetails(value: unknown): DocumentEvidence['document_details'] {
  if (!isObject(value)) return undefined;
  const type = bounded(value.type);
  if (!type) return undefined;
  const issuer = copyPlace(value.issuer);
  return {
    type,
    ...pick(value, ['document_number']),
    ...(isDate(value.date_of_issuance) ? { date_of_issuance: value.date_of_issuance } : {}),
    ...(isDate(value.date_of_expiry) ? { date_of_expiry: value.date_of_expiry } : {}),
    ...(issuer ? { issuer } : {}),
  };
}

function copyRecord(value: unknown): ElectronicRecordEvidence['record'] | undefined {
  if (!isObject(value)) return undefined;
  const type = bounded(value.type);
  if (!type) return undefined;
  const source = copyPlace(value.source);
  return {
    type,
    ...(isDateTime(value.created_at) ? { created_at: iso(value.created_at) } : {}),
    ...(isDate(value.date_of_expiry) ? { date_of_expiry: value.date_of_expiry } : {}),
    ...(source ? { source } : {}),
  };
}

/** A document's issuer or a record's source: name, country, country_code; nothing else of an address. */
function copyPlace(value: unknown): { name?: string; country?: string; country_code?: string } | undefined {
  if (!isObject(value)) return undefined;
  const place = pick(value, ['name', 'country', 'country_code']);
  return Object.keys(place).length ? place : undefined;
}

function pick<K extends string>(holder: Json, names: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = bounded(holder[name]);
    if (value) out[name] = value;
  }
  return out;
}

const bounded = (value: unknown): string | undefined => (typeof value === 'string' && value && value.length <= MAX_TEXT ? value : undefined);
/** The schema's date-time, in one form: UTC with milliseconds (the upstream's offset says nothing the merchant needs). */
const iso = (value: string) => new Date(Date.parse(value)).toISOString();
