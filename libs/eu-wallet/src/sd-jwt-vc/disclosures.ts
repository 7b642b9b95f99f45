import { WalletCheckError } from '../errors.js';
import { base64UrlJson, isObject, sha256B64u } from '../jose/compact-jws.js';

/**
 * RFC 9901 §7.1 (Verification of the SD-JWT), steps 3 to 5, done strictly: @sd-jwt/decode's `unpack` drops a
 * Disclosure no digest references, lets the last of two equal digests win, lets a disclosed name overwrite a claim in
 * the clear, takes an object-property Disclosure for an array element, and accepts any JSON of length 2 or 3 (a
 * string "ab" is a Disclosure to it). Each of those is a refusal here.
 */

interface ParsedDisclosure {
  digest: string;
  /** Present for an object property Disclosure (RFC 9901 §4.2.1), absent for an array element (§4.2.2). */
  name?: string;
  value: unknown;
  used: boolean;
}

const MAX_DEPTH = 16;
/** Names a Disclosure may not carry (§4.2.1), and one that would reach an object's prototype here. */
const FORBIDDEN_NAMES = new Set(['_sd', '...', '__proto__']);

function parseDisclosure(encoded: string, index: number): ParsedDisclosure {
  const what = `disclosure ${index}`;
  const json = base64UrlJson(encoded, what);
  // §4.2.1 / §4.2.2: a JSON array [salt, name, value] or [salt, value], the salt a string.
  if (!Array.isArray(json) || (json.length !== 2 && json.length !== 3) || typeof json[0] !== 'string') {
    throw new WalletCheckError('malformed', `${what} is not [salt, name, value] or [salt, value]`);
  }
  if (json.length === 3 && (typeof json[1] !== 'string' || json[1].length === 0 || FORBIDDEN_NAMES.has(json[1]))) {
    throw new WalletCheckError('malformed', `${what} has an invalid claim name`);
  }
  // §4.2.3: the digest is over the Disclosure as presented (its base64url text), not over a re-encoding.
  return json.length === 3
    ? { digest: sha256B64u(encoded), name: json[1] as string, value: json[2], used: false }
    : { digest: sha256B64u(encoded), value: json[1], used: false };
}

/**
 * The payload with every presented Disclosure put in its place and `_sd` / `...` entries removed (§7.1 step 3), after
 * checking that each digest occurs once (step 4) and each Disclosure is referenced (step 5). `_sd_alg` is dropped too.
 */
export function unpackDisclosures(payload: Record<string, unknown>, encodedDisclosures: readonly string[]): Record<string, unknown> {
  const byDigest = new Map<string, ParsedDisclosure>();
  encodedDisclosures.forEach((encoded, i) => {
    const parsed = parseDisclosure(encoded, i);
    // The same Disclosure twice would be referenced "more than once" (§7.1 step 4): one reference, two uses.
    if (byDigest.has(parsed.digest)) throw new WalletCheckError('invalid_signature', `disclosure ${i} is presented twice`);
    byDigest.set(parsed.digest, parsed);
  });
  const seen = new Set<string>();
  const claim = (digest: unknown): ParsedDisclosure | undefined => {
    if (typeof digest !== 'string') throw new WalletCheckError('malformed', 'a digest is not a string');
    // §7.1 step 4: a digest met twice, in the payload or through Disclosures, makes the SD-JWT invalid.
    if (seen.has(digest)) throw new WalletCheckError('invalid_signature', 'a digest occurs more than once');
    seen.add(digest);
    const found = byDigest.get(digest);
    if (found) found.used = true;
    return found;
  };

  const walk = (value: unknown, depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new WalletCheckError('malformed', `claims nested deeper than ${MAX_DEPTH}`);
    if (Array.isArray(value)) return walkArray(value, depth);
    if (isObject(value)) return walkObject(value, depth);
    return value;
  };

  const walkArray = (array: unknown[], depth: number): unknown[] => {
    const out: unknown[] = [];
    for (const item of array) {
      if (isObject(item) && Object.hasOwn(item, '...')) {
        // §4.2.4.2: an array element digest is an object with the single key "...".
        if (Object.keys(item).length !== 1) throw new WalletCheckError('malformed', 'an array digest object has other keys');
        const found = claim(item['...']);
        if (!found) continue; // a decoy or an element not disclosed: removed (§7.1 step 3.d)
        if (found.name !== undefined) throw new WalletCheckError('malformed', 'an array element refers to an object property disclosure');
        out.push(walk(found.value, depth + 1));
      } else {
        out.push(walk(item, depth + 1));
      }
    }
    return out;
  };

  const walkObject = (object: Record<string, unknown>, depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(object)) {
      if (key === '_sd' || (key === '_sd_alg' && depth === 0)) continue;
      if (key === '...' || key === '__proto__') throw new WalletCheckError('malformed', `an object has the reserved key ${key}`);
      out[key] = walk(child, depth + 1);
    }
    const digests = object._sd;
    if (digests === undefined) return out;
    if (!Array.isArray(digests)) throw new WalletCheckError('malformed', '_sd is not an array');
    for (const digest of digests) {
      const found = claim(digest);
      if (!found) continue; // a decoy or a claim not disclosed
      if (found.name === undefined) throw new WalletCheckError('malformed', '_sd refers to an array element disclosure');
      // §7.1 step 3.c.ii.3: a disclosed name that already exists at this level makes the SD-JWT invalid.
      if (Object.hasOwn(out, found.name)) throw new WalletCheckError('malformed', 'a disclosed claim name already exists at its level');
      out[found.name] = walk(found.value, depth + 1);
    }
    return out;
  };

  const claims = walkObject(payload, 0);
  // §7.1 step 5: a Disclosure no digest references is a refusal, not silently dropped. Tampering with a Disclosure
  // changes its digest, so a tampered one lands here too.
  const unreferenced = [...byDigest.values()].findIndex((d) => !d.used);
  if (unreferenced >= 0) throw new WalletCheckError('invalid_signature', `disclosure ${unreferenced} is not referenced by the credential`);
  return claims;
}
