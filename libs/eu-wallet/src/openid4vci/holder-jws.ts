/**
 * The JWS pieces the key proofs (OpenID4VCI 1.0 Appendix F.1) and the DPoP proofs (RFC 9449 §4.2) share: both are
 * compact JWS signed by a key the wallet puts in the header as `jwk`. A strict split (RFC 7515 §7.1), the algorithm
 * allowlist with the curve each algorithm needs, the public-key-only JWK, the signature by that JWK, and the RFC 7638
 * thumbprint. `none`, HS* and RS* never pass, whatever a header says.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { CredentialIssuerError, type CredentialIssuerErrorCode } from './issuer-error.js';

/** Asymmetric algorithms accepted for a holder key: HAIP 1.0's ES256, the other NIST curves, and EdDSA. */
export const HOLDER_KEY_ALGS = ['ES256', 'ES384', 'ES512', 'EdDSA'] as const;
export type HolderKeyAlg = (typeof HOLDER_KEY_ALGS)[number];

const EC_ALGS = {
  ES256: { hash: 'sha256', crv: 'P-256', size: 32 },
  ES384: { hash: 'sha384', crv: 'P-384', size: 48 },
  ES512: { hash: 'sha512', crv: 'P-521', size: 66 },
} as const;
const EDDSA_SIGNATURE_BYTES = { Ed25519: 64, Ed448: 114 } as const;

/** A holder's public key as the credential binds it (cnf.jwk, RFC 7800 §3.2): only the members RFC 7638 hashes. */
export type HolderJwk = { kty: 'EC'; crv: 'P-256' | 'P-384' | 'P-521'; x: string; y: string } | { kty: 'OKP'; crv: 'Ed25519' | 'Ed448'; x: string };

export interface HolderJws {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: string;
  signature: string;
}

const B64URL = /^[A-Za-z0-9_-]+$/;
/** Members of a private or symmetric JWK (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037 §2). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function jsonSegment(segment: string, what: string, code: CredentialIssuerErrorCode): Record<string, unknown> {
  let value: unknown;
  try {
    // JSON.parse errors quote the input: replaced, never wrapped into the description.
    value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    throw new CredentialIssuerError(code, `${what} is not base64url JSON`);
  }
  if (!isObject(value)) throw new CredentialIssuerError(code, `${what} is not a JSON object`);
  return value;
}

/** RFC 7515 §7.1 compact serialization, bounded; `crit` refused (RFC 7515 §4.1.11: none is understood here). */
export function decodeHolderJws(jws: unknown, what: string, code: CredentialIssuerErrorCode, maxChars: number): HolderJws {
  if (typeof jws !== 'string' || jws.length > maxChars) throw new CredentialIssuerError(code, `${what} is not a string of at most ${maxChars} characters`);
  const parts = jws.split('.');
  if (parts.length !== 3 || !parts.every((p) => B64URL.test(p))) throw new CredentialIssuerError(code, `${what} is not a compact JWS`);
  const header = jsonSegment(parts[0], `${what} header`, code);
  const payload = jsonSegment(parts[1], `${what} payload`, code);
  if (header.crit !== undefined) throw new CredentialIssuerError(code, `${what} has critical header parameters`);
  return { header, payload, signingInput: `${parts[0]}.${parts[1]}`, signature: parts[2] };
}

/** The header's `alg` if asymmetric and in the allowlist (OpenID4VCI 1.0 Appendix F.1; RFC 9449 §4.3 step 5). */
export function holderAlg(header: Record<string, unknown>, what: string, code: CredentialIssuerErrorCode): HolderKeyAlg {
  const alg = header.alg;
  if (typeof alg !== 'string' || !(HOLDER_KEY_ALGS as readonly string[]).includes(alg)) {
    throw new CredentialIssuerError(code, `${what} alg is not one of ${HOLDER_KEY_ALGS.join(', ')}`);
  }
  return alg as HolderKeyAlg;
}

/**
 * The header's `jwk` as a public key of the algorithm's type (OpenID4VCI 1.0 Appendix F.1: "MUST NOT contain a private
 * key"; RFC 9449 §4.3 step 7): EC with the algorithm's curve, or OKP Ed25519/Ed448 for EdDSA. Returned reduced to
 * the members RFC 7638 hashes, so nothing else the wallet wrote ends up in a credential.
 */
export function holderJwk(header: Record<string, unknown>, alg: HolderKeyAlg, what: string, code: CredentialIssuerErrorCode): HolderJwk {
  const jwk = header.jwk;
  if (!isObject(jwk)) throw new CredentialIssuerError(code, `${what} header has no jwk`);
  if (PRIVATE_MEMBERS.some((member) => jwk[member] !== undefined)) throw new CredentialIssuerError(code, `${what} jwk is not a public key`);
  const b64 = (value: unknown) => typeof value === 'string' && B64URL.test(value) && value.length <= 100;
  if (alg === 'EdDSA') {
    if (jwk.kty !== 'OKP' || (jwk.crv !== 'Ed25519' && jwk.crv !== 'Ed448') || !b64(jwk.x))
      throw new CredentialIssuerError(code, `${what} jwk is not an Ed25519 or Ed448 key`);
    return { kty: 'OKP', crv: jwk.crv, x: jwk.x as string };
  }
  const { crv } = EC_ALGS[alg];
  if (jwk.kty !== 'EC' || jwk.crv !== crv || !b64(jwk.x) || !b64(jwk.y))
    throw new CredentialIssuerError(code, `${what} jwk is not an EC ${crv} key as ${alg} needs`);
  return { kty: 'EC', crv, x: jwk.x as string, y: jwk.y as string };
}

/** RFC 7515 §5.2 with the JWK's key: ECDSA as R || S (RFC 7518 §3.4), EdDSA (RFC 8037 §3.1). False on any failure. */
export function verifyHolderSignature(alg: HolderKeyAlg, jwk: HolderJwk, signingInput: string, signature: string): boolean {
  try {
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    const sig = Buffer.from(signature, 'base64url');
    const data = Buffer.from(signingInput, 'ascii');
    if (alg === 'EdDSA') return jwk.kty === 'OKP' && sig.length === EDDSA_SIGNATURE_BYTES[jwk.crv] && verify(null, data, key, sig);
    const { hash, size } = EC_ALGS[alg];
    return sig.length === 2 * size && verify(hash, data, { key, dsaEncoding: 'ieee-p1363' }, sig);
  } catch {
    // Not a point on the curve, or a key node:crypto will not import: no valid signature.
    return false;
  }
}

/** RFC 7638 §3: SHA-256 over the required members in lexicographic order, base64url. */
export function jwkThumbprint(jwk: HolderJwk): string {
  const canonical = jwk.kty === 'EC' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } : { crv: jwk.crv, kty: jwk.kty, x: jwk.x };
  return createHash('sha256').update(JSON.stringify(canonical), 'utf8').digest('base64url');
}

/** A NumericDate (RFC 7519 §2) that must be there: an integer-or-fraction number of seconds. */
export function requiredNumericDate(payload: Record<string, unknown>, name: string, what: string, code: CredentialIssuerErrorCode): number {
  const value = payload[name];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new CredentialIssuerError(code, `${what} has no numeric ${name}`);
  return value;
}
