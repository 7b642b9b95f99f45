/**
 * Which claims of an SD-JWT its disclosures can reveal, by JSONPath (@meeco/sd-jwt's reading of the digests), and
 * which of them a DCQL claims path pointer (OpenID4VP 1.0 §7.1) names.
 */
import { createHash } from 'node:crypto';
import { decodeJWT, SDJsonpath } from '@meeco/sd-jwt';

type ClaimsPath = (string | number | null)[];

const sha256 = (data: string) => createHash('sha256').update(data).digest('base64url');

/** RFC 9901 §4.1.1: the hash the issuer names in _sd_alg; this wallet knows sha-256, the default. */
export const sdHasher = async (alg?: string) => {
  if (alg !== undefined && alg !== 'sha-256') throw new Error(`SD-JWT: unsupported _sd_alg ${alg}`);
  return sha256;
};

/** The issuer-signed payload as it stands, before any disclosure (its always-disclosed claims in the clear). */
export function signedPayload(credential: string): Record<string, unknown> {
  return decodeJWT(credential.split('~')[0]).payload as Record<string, unknown>;
}

/** Each disclosable claim's JSONPath (`$.name`, `$.age_equal_or_over.18`, `$.nationalities[0]`) and its value. */
export function disclosablePaths(credential: string): Map<string, unknown> {
  const payload = signedPayload(credential);
  if (payload._sd_alg !== undefined && payload._sd_alg !== 'sha-256') throw new Error(`SD-JWT: unsupported _sd_alg ${String(payload._sd_alg)}`);
  const disclosures = credential
    .split('~')
    .slice(1)
    .filter((d) => d.length > 0 && !d.includes('.'));
  return new Map(Object.entries(SDJsonpath.fromJWT(payload, disclosures, sha256) as Record<string, unknown>));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A claims path as a pattern over @meeco/sd-jwt's JSONPaths: a name is `.name`, an index `[i]`, null any index. */
function pathPattern(path: ClaimsPath, withDescendants: boolean): RegExp {
  const segments = path.map((p) => (p === null ? '\\[\\d+\\]' : typeof p === 'number' ? `\\[${p}\\]` : `\\.${escape(p)}`)).join('');
  return new RegExp(`^\\$${segments}${withDescendants ? '(?:[.[].*)?' : ''}$`);
}

/** The value a claims path selects in the clear payload (§7.1.1 processing, without disclosures), or undefined. */
function clearValue(payload: unknown, path: ClaimsPath): unknown {
  let selected: unknown[] = [payload];
  for (const p of path) {
    selected = selected.flatMap((v) => {
      if (p === null) return Array.isArray(v) ? v : [];
      if (typeof p === 'number') return Array.isArray(v) && p < v.length ? [v[p]] : [];
      return v !== null && typeof v === 'object' && !Array.isArray(v) && p in v ? [(v as Record<string, unknown>)[p]] : [];
    });
  }
  return selected.length > 0 ? selected : undefined;
}

/**
 * The JSONPaths to disclose so that the claims paths are answered: every disclosure at or below each path (an
 * object asked whole comes with its contents; the parents a nested claim needs are added by @meeco/sd-jwt), or
 * null when the credential has no such claim, disclosable or in the clear.
 */
export function disclosuresFor(credential: string, paths: ClaimsPath[]): string[] | null {
  const disclosable = [...disclosablePaths(credential).keys()];
  const payload = signedPayload(credential);
  const chosen = new Set<string>();
  for (const path of paths) {
    const exact = pathPattern(path, false);
    const below = pathPattern(path, true);
    const found = disclosable.filter((p) => below.test(p));
    if (!disclosable.some((p) => exact.test(p)) && clearValue(payload, path) === undefined) return null;
    found.forEach((p) => chosen.add(p));
  }
  return [...chosen];
}
