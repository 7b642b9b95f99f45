/**
 * What the service asks the wallet for: a DCQL query (OpenID4VP 1.0 §6), the only query language HAIP 1.0 §5 allows.
 * The `dcql` package is not among the installed ones, so the query the service makes is checked here against the
 * §6 rules the service relies on (ids, meta, claims paths, credential_sets references).
 */

/** Credential kinds of the EU wallet. PID in both formats (PID Rulebook), and the ISO 18013-5 mDL. */
export const PID_SD_JWT_VCT = 'urn:eudi:pid:1';
export const PID_MDOC_DOCTYPE = 'eu.europa.ec.eudi.pid.1';
export const MDL_DOCTYPE = 'org.iso.18013.5.1.mDL';
/** The mDL's data elements' namespace (ISO 18013-5 7.2.1). */
export const MDL_NAMESPACE = 'org.iso.18013.5.1';

/** One acceptable kind of credential and the claims needed from it (by the builder, turned into a Credential Query). */
export type WantedCredential =
  | {
      id: string;
      format: 'dc+sd-jwt';
      /** Accepted `vct` values (meta.vct_values, 1.0 Appendix B.3.5). */
      vct: string[];
      /** Claims path pointers (1.0 §7.1), e.g. `['family_name']`, `['address', 'postal_code']`, `['nationalities', null]` (every element). */
      claims: Array<Array<string | number | null>>;
      /**
       * Claims asked for when the credential has them (a credential may lack, say, a place of birth): offered through
       * `claim_sets` (1.0 §6.4.1), every subset of them beside all of `claims`, the largest first, so that a wallet
       * answering with the first set it can satisfy discloses each of them it holds. At most MAX_OPTIONAL_CLAIMS.
       */
      optionalClaims?: Array<Array<string | number | null>>;
    }
  | {
      id: string;
      format: 'mso_mdoc';
      /** meta.doctype_value (1.0 Appendix B.2.3). */
      doctype: string;
      /** [namespace, data element identifier] (1.0 §7.2). */
      claims: Array<[string, string]>;
      /** intent_to_retain for every element (1.0 Appendix B.2.4); the broker passes attributes on, so false. */
      intentToRetain?: boolean;
    };

export interface DcqlClaimsQuery {
  /** Required when the Credential Query has claim_sets (1.0 §6.3). */
  id?: string;
  path: Array<string | number | null>;
  intent_to_retain?: boolean;
}

export interface DcqlCredentialQuery {
  id: string;
  format: 'dc+sd-jwt' | 'mso_mdoc';
  multiple?: boolean;
  meta: { vct_values: string[] } | { doctype_value: string };
  claims?: DcqlClaimsQuery[];
  /** Combinations of claim ids, in order of preference (1.0 §6.1, §6.4.1). */
  claim_sets?: string[][];
}

export interface DcqlCredentialSetQuery {
  options: string[][];
  required?: boolean;
}

export interface DcqlQuery {
  credentials: DcqlCredentialQuery[];
  credential_sets?: DcqlCredentialSetQuery[];
}

/** 1.0 §6.1: ids are non-empty, alphanumeric, `_` or `-`. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** 2^4 claim sets at most: enough for the optional attributes of one document, small enough for any wallet. */
export const MAX_OPTIONAL_CLAIMS = 4;

/** Every subset of `items`, the largest first (the order among subsets of one size follows `items`). */
function subsetsLargestFirst<T>(items: T[]): T[][] {
  const count = 2 ** items.length;
  // Masks from all-ones down, the first item as the highest bit: among subsets of one size, those with earlier items first.
  const all = Array.from({ length: count }, (_, k) => items.filter((_, i) => ((count - 1 - k) >> (items.length - 1 - i)) & 1));
  return all.sort((a, b) => b.length - a.length);
}

/** The claims of an SD-JWT VC Credential Query: with optional ones, each claim gets an id and claim_sets offers the subsets. */
function sdJwtClaims(
  required: Array<Array<string | number | null>>,
  optional: Array<Array<string | number | null>> = [],
): Pick<DcqlCredentialQuery, 'claims' | 'claim_sets'> {
  if (optional.length === 0) return { claims: required.map((path) => ({ path: [...path] })) };
  if (optional.length > MAX_OPTIONAL_CLAIMS) throw new TypeError(`DCQL query: at most ${MAX_OPTIONAL_CLAIMS} optional claims`);
  const claims = [...required, ...optional].map((path, i) => ({ id: `c${i}`, path: [...path] }));
  const requiredIds = claims.slice(0, required.length).map((c) => c.id);
  const optionalIds = claims.slice(required.length).map((c) => c.id);
  return { claims, claim_sets: subsetsLargestFirst(optionalIds).map((subset) => [...requiredIds, ...subset]) };
}

/**
 * The query for a login: each wanted kind becomes a Credential Query; with more than one kind, one required Credential
 * Set Query offers them as alternatives (`options: [[a], [b], …]`, 1.0 §6.2), in the caller's order of preference.
 */
export function buildDcqlQuery(kinds: WantedCredential[]): DcqlQuery {
  const credentials = kinds.map((kind): DcqlCredentialQuery => {
    if (kind.format === 'dc+sd-jwt') {
      return { id: kind.id, format: kind.format, meta: { vct_values: [...kind.vct] }, ...sdJwtClaims(kind.claims, kind.optionalClaims) };
    }
    const retain = kind.intentToRetain ?? false;
    return {
      id: kind.id,
      format: kind.format,
      meta: { doctype_value: kind.doctype },
      claims: kind.claims.map(([namespace, element]) => ({ path: [namespace, element], intent_to_retain: retain })),
    };
  });
  const query: DcqlQuery = { credentials };
  if (kinds.length > 1) query.credential_sets = [{ options: kinds.map((kind) => [kind.id]), required: true }];
  validateDcqlQuery(query);
  return query;
}

/**
 * The §6 rules for a query the service sends (a failure is the service's own mistake, hence TypeError): non-empty
 * credentials with unique ids, meta per format, claims paths (mdoc: exactly namespace and element), no claim twice,
 * credential_sets options naming existing ids.
 */
/* eslint-disable-next-line complexity -- the DCQL §6 rules in the order the specification lists them, each a guard
   that throws; a flat checklist, not nested decisions */
export function validateDcqlQuery(query: DcqlQuery): void {
  const fail = (why: string): never => {
    throw new TypeError(`DCQL query: ${why}`);
  };
  if (!Array.isArray(query.credentials) || query.credentials.length === 0) fail('credentials must be a non-empty array');
  const ids = new Set<string>();
  for (const credential of query.credentials) {
    if (!ID.test(credential.id)) fail(`credential id ${JSON.stringify(credential.id)} is not 1-64 of [A-Za-z0-9_-]`);
    if (ids.has(credential.id)) fail(`credential id ${credential.id} appears twice`);
    ids.add(credential.id);
    const meta = credential.meta as Record<string, unknown>;
    if (credential.format === 'dc+sd-jwt') {
      const vct = meta.vct_values;
      if (!Array.isArray(vct) || vct.length === 0 || !vct.every((v) => typeof v === 'string' && v !== ''))
        fail(`${credential.id}: meta.vct_values must be non-empty strings`);
    } else if (credential.format === 'mso_mdoc') {
      if (typeof meta.doctype_value !== 'string' || meta.doctype_value === '') fail(`${credential.id}: meta.doctype_value must be a non-empty string`);
    } else fail(`${credential.id}: format ${String(credential.format)} is not dc+sd-jwt or mso_mdoc`);
    if (credential.claims === undefined) continue;
    if (credential.claims.length === 0) fail(`${credential.id}: claims, when present, must be non-empty`);
    const seen = new Set<string>();
    for (const claim of credential.claims) {
      const { path } = claim;
      if (!Array.isArray(path) || path.length === 0) fail(`${credential.id}: a claims path must be non-empty`);
      if (credential.format === 'mso_mdoc' && (path.length !== 2 || !path.every((p) => typeof p === 'string' && p !== ''))) {
        fail(`${credential.id}: an mdoc claims path is [namespace, element]`);
      }
      if (!path.every((p) => p === null || (typeof p === 'string' && p !== '') || (Number.isInteger(p) && (p as number) >= 0))) {
        fail(`${credential.id}: a claims path holds strings, non-negative integers or null`);
      }
      const key = JSON.stringify(path);
      if (seen.has(key)) fail(`${credential.id}: claim ${key} asked twice`);
      seen.add(key);
    }
    validateClaimSets(credential, fail);
  }
  if (query.credential_sets === undefined) return;
  if (query.credential_sets.length === 0) fail('credential_sets, when present, must be non-empty');
  for (const set of query.credential_sets) {
    if (!Array.isArray(set.options) || set.options.length === 0) fail('a credential set needs non-empty options');
    for (const option of set.options) {
      if (!Array.isArray(option) || option.length === 0) fail('a credential set option must be a non-empty array');
      for (const id of option) if (!ids.has(id)) fail(`credential set option names unknown id ${JSON.stringify(id)}`);
    }
  }
}

/** 1.0 §6.3: with claim_sets every claim has a unique id; each set is a non-empty list of those ids. */
function validateClaimSets(credential: DcqlCredentialQuery, fail: (why: string) => never): void {
  if (credential.claim_sets === undefined) return;
  const claims = credential.claims ?? [];
  const ids = new Set(claims.map((c) => c.id));
  if (claims.some((c) => typeof c.id !== 'string' || !ID.test(c.id)) || ids.size !== claims.length)
    fail(`${credential.id}: with claim_sets every claim needs a unique id`);
  if (!Array.isArray(credential.claim_sets) || credential.claim_sets.length === 0) fail(`${credential.id}: claim_sets, when present, must be non-empty`);
  for (const set of credential.claim_sets) {
    if (!Array.isArray(set) || set.length === 0 || !set.every((id) => ids.has(id))) fail(`${credential.id}: a claim set must be a non-empty list of claim ids`);
  }
}
