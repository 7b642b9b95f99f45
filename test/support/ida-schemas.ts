import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ajv2020 from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

// CommonJS modules: under nodenext their default import is module.exports, whose `default` is the class and the plugin.
const Ajv2020 = ajv2020.default;
const addFormats = ajvFormats.default;

/*
 * The OpenID Foundation's published JSON schemas of OpenID Connect for Identity Assurance (test/fixtures/ekyc-ida,
 * PROVENANCE.md), loaded into one validator: the answers the service emits and the requests the tests send are checked
 * against the standard itself, not our reading of it.
 */
const DIR = join(import.meta.dirname, '../fixtures/ekyc-ida');
const load = (name: string) => JSON.parse(readFileSync(join(DIR, name), 'utf8')) as { $id: string };

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
for (const file of ['claims_schema.json', 'verified_claims.json', 'verified_claims_request.json']) ajv.addSchema(load(file));
const answers = ajv.getSchema(load('verified_claims.json').$id)!;
const requests = ajv.getSchema(load('verified_claims_request.json').$id)!;

/** The schema's complaints about a payload carrying `verified_claims` (an ID token or user-info answer); [] when valid. */
export function verifiedClaimsProblems(payload: unknown): string[] {
  return answers(payload) ? [] : (answers.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** The schema's complaints about a claims parameter (`{ id_token: {…}, userinfo: {…} }`); [] when valid. */
export function verifiedClaimsRequestProblems(claims: unknown): string[] {
  return requests(claims) ? [] : (requests.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** Throws with the schema's complaints unless `payload` is valid (for use inside tests: the message says why). */
export function expectValidVerifiedClaims(payload: unknown): void {
  const problems = verifiedClaimsProblems(payload);
  if (problems.length) throw new Error(`verified_claims fails the OpenID Foundation schema:\n${problems.join('\n')}\n${JSON.stringify(payload, null, 1)}`);
}

export function expectValidVerifiedClaimsRequest(claims: unknown): void {
  const problems = verifiedClaimsRequestProblems(claims);
  if (problems.length) throw new Error(`the claims request fails the OpenID Foundation schema:\n${problems.join('\n')}\n${JSON.stringify(claims)}`);
}

/** The protocol's own example requests (test/fixtures/ekyc-ida/request-examples), by file name without .json. */
export function requestExample(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(DIR, 'request-examples', `${name}.json`), 'utf8')) as Record<string, unknown>;
}
