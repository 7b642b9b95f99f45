import { createHash, verify, type KeyObject } from 'node:crypto';
import { WalletCheckError, type WalletCheckCode } from '../errors.js';

/**
 * The few JWS pieces the SD-JWT VC and status list checks share: a strict split of a compact JWS (RFC 7515 §7.1), the
 * algorithm allowlist, the ECDSA signature check and the x5c header (RFC 7515 §4.1.6). The allowlist is HAIP 1.0's
 * (ES256 mandatory) widened to the other NIST curves; `none`, HS* and RSA never pass, whatever a header says.
 */
export const ALLOWED_ALGS = {
  ES256: { hash: 'sha256', curve: 'prime256v1', size: 32 },
  ES384: { hash: 'sha384', curve: 'secp384r1', size: 48 },
  ES512: { hash: 'sha512', curve: 'secp521r1', size: 66 },
} as const;
export type AllowedAlg = keyof typeof ALLOWED_ALGS;

export interface CompactJws {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  /** `BASE64URL(header).BASE64URL(payload)`, the JWS signing input (RFC 7515 §5.1). */
  signingInput: string;
  signature: string;
}

const B64URL = /^[A-Za-z0-9_-]*$/;

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Base64url without padding (RFC 7515 §2) to bytes; anything else is `malformed`. */
export function base64UrlBytes(segment: string, what: string): Buffer {
  if (!B64URL.test(segment) || segment.length % 4 === 1) throw new WalletCheckError('malformed', `${what} is not base64url`);
  return Buffer.from(segment, 'base64url');
}

/** JSON of a base64url segment. JSON.parse errors carry input text, so they are replaced, not wrapped as a message. */
export function base64UrlJson(segment: string, what: string): unknown {
  const text = base64UrlBytes(segment, what).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new WalletCheckError('malformed', `${what} is not JSON`);
  }
}

export function parseCompactJws(jws: string, what: string): CompactJws {
  const parts = jws.split('.');
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) throw new WalletCheckError('malformed', `${what} is not a compact JWS`);
  const header = base64UrlJson(parts[0], `${what} header`);
  const payload = base64UrlJson(parts[1], `${what} payload`);
  if (!isObject(header) || !isObject(payload)) throw new WalletCheckError('malformed', `${what} header or payload is not a JSON object`);
  base64UrlBytes(parts[2], `${what} signature`);
  // RFC 7515 §4.1.11: a recipient that does not understand a listed critical extension must refuse the JWS.
  if (header.crit !== undefined) throw new WalletCheckError('unexpected_credential', `${what} has critical header parameters`);
  return { header, payload, signingInput: `${parts[0]}.${parts[1]}`, signature: parts[2] };
}

/** The header's `alg` if in the allowlist; `none`, HS*, RS* and the rest are `unexpected_credential`. */
export function allowedAlg(header: Record<string, unknown>, what: string, code: WalletCheckCode = 'unexpected_credential'): AllowedAlg {
  const alg = header.alg;
  if (typeof alg !== 'string' || !Object.hasOwn(ALLOWED_ALGS, alg))
    throw new WalletCheckError(code, `${what} alg is not one of ${Object.keys(ALLOWED_ALGS).join(', ')}`);
  return alg as AllowedAlg;
}

/**
 * An ECDSA JWS signature (RFC 7518 §3.4: R || S, fixed length) by `key` over the signing input. The key's curve must be
 * the algorithm's: ES256 over a P-384 key is refused rather than verified with a hash the signer did not mean.
 */
export function verifyEcdsa(alg: AllowedAlg, key: KeyObject, signingInput: string, signature: string): boolean {
  const { hash, curve, size } = ALLOWED_ALGS[alg];
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== curve) return false;
  const sig = Buffer.from(signature, 'base64url');
  if (sig.length !== 2 * size) return false;
  return verify(hash, Buffer.from(signingInput, 'ascii'), { key, dsaEncoding: 'ieee-p1363' }, sig);
}

/** RFC 7515 §4.1.6: x5c is a non-empty array of base64 (not base64url) DER certificates, leaf first. */
export function x5cChain(header: Record<string, unknown>, what: string): Uint8Array[] {
  const x5c = header.x5c;
  if (!Array.isArray(x5c) || x5c.length === 0) throw new WalletCheckError('untrusted_issuer', `${what} has no x5c certificate chain`);
  return x5c.map((entry, i) => {
    if (typeof entry !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(entry)) throw new WalletCheckError('malformed', `${what} x5c entry ${i} is not base64`);
    return new Uint8Array(Buffer.from(entry, 'base64'));
  });
}

/** base64url(SHA-256(ASCII text)): disclosure digests (RFC 9901 §4.2.3) and sd_hash (§4.3.1) with `_sd_alg` sha-256. */
export const sha256B64u = (text: string): string => createHash('sha256').update(text, 'ascii').digest('base64url');

/** A NumericDate (RFC 7519 §2) claim if present; any other type is `malformed` (a string `exp` must not mean "no expiry"). */
export function numericDate(payload: Record<string, unknown>, name: string, what: string): number | undefined {
  const value = payload[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new WalletCheckError('malformed', `${what} ${name} is not a NumericDate`);
  return value;
}
