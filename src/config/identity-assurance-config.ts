import { ConfigError } from './app-config.js';

/**
 * IDA_TRUST_FRAMEWORKS: the trust framework, and the assurance levels within it, each scheme's `verified_claims`
 * state (OpenID Connect for Identity Assurance 1.0), keyed by scheme id (built-in or an upstream scheme's). The
 * operator's statement, never a merchant's or a scheme's: docs/identity-assurance.md. Example:
 * `{"document-verifier":{"trust_framework":"eidas","assurance_level":"substantial","assurance_level_high":"high"}}`.
 */
export interface SchemeTrustFramework {
  trust_framework: string;
  /** The level stated for a login below the spec's eIDAS-high rule (spec 2.1 acr); absent: none stated. */
  assurance_level?: string;
  /** The level stated for a login that met the eIDAS-high rule; absent: `assurance_level`. */
  assurance_level_high?: string;
}

export type IdentityAssuranceConfig = Readonly<Record<string, SchemeTrustFramework>>;

const SCHEME_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** Printable ASCII without spaces: a framework or level identifier (`eidas`, `de_aml`, `https://…`), 1-200 characters. */
const IDENTIFIER = /^[\x21-\x7e]{1,200}$/;
const FIELDS = new Set(['trust_framework', 'assurance_level', 'assurance_level_high']);

export function loadIdentityAssuranceConfig(env: Record<string, string | undefined>): IdentityAssuranceConfig {
  const raw = env.IDA_TRUST_FRAMEWORKS?.trim();
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(['IDA_TRUST_FRAMEWORKS: must be a JSON object (scheme id to {"trust_framework", "assurance_level", "assurance_level_high"})']);
  }
  if (!isObject(parsed)) throw new ConfigError(['IDA_TRUST_FRAMEWORKS: must be a JSON object keyed by scheme id']);
  const problems: string[] = [];
  const out: Record<string, SchemeTrustFramework> = {};
  for (const [scheme, value] of Object.entries(parsed)) {
    const at = `IDA_TRUST_FRAMEWORKS.${scheme}`;
    if (!SCHEME_ID.test(scheme)) problems.push(`IDA_TRUST_FRAMEWORKS: "${scheme.slice(0, 64)}" is not a scheme id`);
    else if (!isObject(value)) problems.push(`${at}: must be an object`);
    else {
      const unknown = Object.keys(value).filter((k) => !FIELDS.has(k));
      if (unknown.length) problems.push(`${at}: unknown field ${unknown.join(', ')}`);
      for (const field of FIELDS)
        if (value[field] !== undefined && (typeof value[field] !== 'string' || !IDENTIFIER.test(value[field])))
          problems.push(`${at}.${field}: must be an identifier of 1-200 printable characters without spaces`);
      if (typeof value.trust_framework !== 'string') problems.push(`${at}.trust_framework: required`);
      else if (value.trust_framework.startsWith('urn:svc:trust-framework:'))
        problems.push(`${at}.trust_framework: the service's own values are not configured`);
      out[scheme] = value as unknown as SchemeTrustFramework;
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze(out);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
