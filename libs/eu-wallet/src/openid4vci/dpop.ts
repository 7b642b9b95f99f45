/**
 * DPoP proof checks (RFC 9449 §4.3) for the token and credential endpoints. @openid4vc/oauth2 0.4.6 verifies DPoP
 * only inside its token-request and resource-request flows (its `verifyDpopJwt` is not exported) and does not bound
 * `iat` at all, so this is a small check of its own, on the same JWS helpers as the key proofs. Replay of `jti` is the
 * caller's state (RFC 9449 §11.1): it keeps the returned jti for the returned iat window.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { CredentialIssuerError } from './issuer-error.js';
import { decodeHolderJws, holderAlg, holderJwk, jwkThumbprint, requiredNumericDate, verifyHolderSignature } from './holder-jws.js';

export interface VerifyDpopProofInput {
  /** The one `DPoP` header value (RFC 9449 §4.3 step 1: more than one header is the caller's refusal). */
  proof: unknown;
  /** The request's method, e.g. `POST`. */
  method: string;
  /** The request's absolute URL as this service is reached (its public base URL), query and fragment ignored. */
  url: string;
  /** The access token presented with the proof (resource requests): then `ath` is required and checked. */
  accessToken?: string;
  /** The token's `cnf.jkt`: then the proof must be signed by that key (RFC 9449 §4.3 step 12, §6.1). */
  expectedJkt?: string;
  now: Date;
  /** How old iat may be; default 300. */
  maxAgeSeconds?: number;
  /** How far ahead iat may be; default 60. */
  futureSkewSeconds?: number;
}

export interface VerifiedDpopProof {
  /** RFC 7638 thumbprint of the proof's key: the token's `cnf.jkt` (RFC 9449 §6.1). */
  jkt: string;
  /** For the caller's replay check (RFC 9449 §11.1). */
  jti: string;
  iat: number;
}

const DPOP_TYP = 'dpop+jwt';
const MAX_PROOF_CHARS = 8 * 1024;
const MAX_JTI_CHARS = 256;

/** RFC 9449 §4.3 step 9: the URI without query and fragment. */
function htuOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    parsed.search = '';
    parsed.hash = '';
    return parsed.href;
  } catch {
    return undefined;
  }
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Verifies one DPoP proof; every refusal is `invalid_dpop_proof` with a one-line description. */
export function verifyDpopProof(input: VerifyDpopProofInput): VerifiedDpopProof {
  const what = 'DPoP proof';
  // Steps 2-4: a well-formed JWT with typ dpop+jwt.
  const jws = decodeHolderJws(input.proof, what, 'invalid_dpop_proof', MAX_PROOF_CHARS);
  if (jws.header.typ !== DPOP_TYP) throw new CredentialIssuerError('invalid_dpop_proof', `${what} typ is not ${DPOP_TYP}`);
  // Step 5: an asymmetric algorithm this service accepts (none and MAC algorithms never).
  const alg = holderAlg(jws.header, what, 'invalid_dpop_proof');
  // Step 7: jwk a public key; step 6: the signature by it.
  const jwk = holderJwk(jws.header, alg, what, 'invalid_dpop_proof');
  if (!verifyHolderSignature(alg, jwk, jws.signingInput, jws.signature))
    throw new CredentialIssuerError('invalid_dpop_proof', `${what} signature does not verify with its jwk`);

  const { payload } = jws;
  // §4.2: jti REQUIRED, bounded here since the caller stores it.
  if (typeof payload.jti !== 'string' || payload.jti.length === 0 || payload.jti.length > MAX_JTI_CHARS)
    throw new CredentialIssuerError('invalid_dpop_proof', `${what} has no jti`);
  // Step 8: htm is the request's method.
  if (payload.htm !== input.method) throw new CredentialIssuerError('invalid_dpop_proof', `${what} htm is not the request method`);
  // Step 9: htu is the request's URI, query and fragment ignored on both sides.
  const expectedHtu = htuOf(input.url);
  if (typeof payload.htu !== 'string' || expectedHtu === undefined || htuOf(payload.htu) !== expectedHtu)
    throw new CredentialIssuerError('invalid_dpop_proof', `${what} htu is not the request URI`);
  // Step 11: iat within the acceptable window (§11.1).
  const iat = requiredNumericDate(payload, 'iat', what, 'invalid_dpop_proof');
  const nowSeconds = input.now.getTime() / 1000;
  if (nowSeconds - iat > (input.maxAgeSeconds ?? 300)) throw new CredentialIssuerError('invalid_dpop_proof', `${what} iat is too old`);
  if (iat - nowSeconds > (input.futureSkewSeconds ?? 60)) throw new CredentialIssuerError('invalid_dpop_proof', `${what} iat is in the future`);
  // Step 12 and §4.2: with an access token, ath = base64url(SHA-256(ASCII token)), compared in constant time.
  if (input.accessToken !== undefined) {
    const ath = createHash('sha256').update(input.accessToken, 'ascii').digest('base64url');
    if (typeof payload.ath !== 'string' || !same(payload.ath, ath))
      throw new CredentialIssuerError('invalid_dpop_proof', `${what} ath is not the hash of the access token`);
  }
  const jkt = jwkThumbprint(jwk);
  if (input.expectedJkt !== undefined && !same(jkt, input.expectedJkt))
    throw new CredentialIssuerError('invalid_dpop_proof', `${what} is not signed by the key the access token is bound to`);
  return { jkt, jti: payload.jti, iat };
}
