/**
 * Key proofs of a Credential Request (OpenID4VCI 1.0 §8.2 `proofs.jwt`, Appendix F.1 "jwt Proof Type"). The signature
 * and the JWT shape are @openid4vc/openid4vci's `verifyCredentialRequestJwtProof`; around it, what that library leaves
 * to its caller (it keeps no state and checks only what it is given): `typ` and the key only in `jwk`, the algorithm
 * allowlist, a public key, `aud` exactly the issuer, an `iat` neither stale nor in the future, the nonce required and
 * compared in constant time, one distinct key per proof, the number of proofs. Single use of the nonce is the
 * caller's: read it with `proofNonce`, consume it, then verify with it as `expectedNonce`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Oauth2ServerErrorResponseError } from '@openid4vc/oauth2';
import { Openid4vciIssuer, Openid4vciVersion, type IssuerMetadataResult } from '@openid4vc/openid4vci';
import { CredentialIssuerError } from './issuer-error.js';
import {
  decodeHolderJws,
  holderAlg,
  holderJwk,
  jwkThumbprint,
  requiredNumericDate,
  verifyHolderSignature,
  type HolderJwk,
  type HolderKeyAlg,
} from './holder-jws.js';

export interface VerifyKeyProofsInput {
  /** `proofs.jwt` of the request, as received. */
  jwts: unknown;
  /** The Credential Issuer Identifier: what each proof's `aud` must be. */
  credentialIssuer: string;
  /** The c_nonce the caller issued and has just consumed (single use is the caller's state). */
  expectedNonce: string;
  now: Date;
  /** How old a proof's iat may be; default 300. */
  maxAgeSeconds?: number;
  /** How far ahead of now a proof's iat may be (clock skew); default 60. */
  futureSkewSeconds?: number;
  /** The metadata's batch_credential_issuance.batch_size (1 without batch issuance). */
  maxProofs: number;
}

const PROOF_TYP = 'openid4vci-proof+jwt';
/** A jwt proof with an EC P-521 jwk is under 1 KiB; 8 KiB leaves room and bounds the work per proof. */
const MAX_PROOF_CHARS = 8 * 1024;
/** Whatever batch size is configured, no request is read beyond this many proofs. */
const HARD_MAX_PROOFS = 100;
const MAX_NONCE_CHARS = 512;
/** Header parameters naming the key some other way than `jwk` (Appendix F.1: exactly one of kid, jwk, x5c...). */
const OTHER_KEY_REFERENCES = ['kid', 'x5c', 'x5u', 'jku', 'x5t', 'x5t#S256', 'trust_chain', 'key_attestation'];

/** The verifier the library calls back: only a `jwk` signer, with the alg and key our checks have already accepted. */
function libraryIssuer(alg: HolderKeyAlg, jwk: HolderJwk): Openid4vciIssuer {
  const unused = () => {
    throw new Error('not used by the key proof check');
  };
  return new Openid4vciIssuer({
    callbacks: {
      verifyJwt: (signer, jwt) => {
        const verified =
          signer.method === 'jwk' &&
          signer.alg === alg &&
          verifyHolderSignature(alg, jwk, jwt.compact.slice(0, jwt.compact.lastIndexOf('.')), jwt.compact.slice(jwt.compact.lastIndexOf('.') + 1));
        return verified ? { verified: true, signerJwk: jwk } : { verified: false };
      },
      hash: (data, hashAlg) => new Uint8Array(createHash(hashAlg.replace('-', '').toLowerCase()).update(data).digest()),
      generateRandom: unused,
      signJwt: unused,
      clientAuthentication: unused,
    },
  });
}

const issuerMetadataFor = (credentialIssuer: string) =>
  ({
    originalDraftVersion: Openid4vciVersion.V1,
    credentialIssuer: { credential_issuer: credentialIssuer, credential_endpoint: `${credentialIssuer}/credential`, credential_configurations_supported: {} },
    authorizationServers: [],
    knownCredentialConfigurations: {},
  }) as IssuerMetadataResult;

/** `proofs.jwt` as a list of 1..limit entries (OpenID4VCI 1.0 §8.2: a non-empty array; at most batch_size of them). */
function proofList(jwts: unknown, limit: number): unknown[] {
  if (!Array.isArray(jwts) || jwts.length === 0) throw new CredentialIssuerError('invalid_proof', 'proofs.jwt is not a non-empty array');
  if (jwts.length > Math.min(limit, HARD_MAX_PROOFS))
    throw new CredentialIssuerError('invalid_credential_request', `more than ${Math.min(limit, HARD_MAX_PROOFS)} proofs (the batch size)`);
  return jwts;
}

/**
 * The one c_nonce all the proofs carry, read without verifying anything (so the caller can find and consume it first).
 * OpenID4VCI 1.0 §8.3.1.2: a proof without a nonce is `invalid_proof`; proofs with different nonces hold at least
 * one invalid nonce, `invalid_nonce`.
 */
export function proofNonce(jwts: unknown): string {
  let nonce: string | undefined;
  proofList(jwts, HARD_MAX_PROOFS).forEach((jwt, i) => {
    const { payload } = decodeHolderJws(jwt, `key proof ${i}`, 'invalid_proof', MAX_PROOF_CHARS);
    const value = payload.nonce;
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_NONCE_CHARS)
      throw new CredentialIssuerError('invalid_proof', `key proof ${i} has no nonce`);
    if (nonce !== undefined && value !== nonce) throw new CredentialIssuerError('invalid_nonce', 'the key proofs carry different nonces');
    nonce = value;
  });
  return nonce as string;
}

/** Constant-time equality of two strings of any length (digests first, so the length is not compared either). */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b)) && a === b;
}

async function verifyOne(jwt: unknown, i: number, input: VerifyKeyProofsInput): Promise<HolderJwk> {
  const what = `key proof ${i}`;
  const jws = decodeHolderJws(jwt, what, 'invalid_proof', MAX_PROOF_CHARS);
  // Appendix F.1: typ openid4vci-proof+jwt; alg asymmetric (never none, HS*), here the allowlist.
  if (jws.header.typ !== PROOF_TYP) throw new CredentialIssuerError('invalid_proof', `${what} typ is not ${PROOF_TYP}`);
  const alg = holderAlg(jws.header, what, 'invalid_proof');
  // Appendix F.1: the key in `jwk` and no other reference to one (cryptographic_binding_methods_supported is ['jwk']).
  const other = OTHER_KEY_REFERENCES.find((name) => jws.header[name] !== undefined);
  if (other) throw new CredentialIssuerError('invalid_proof', `${what} names its key with ${other}; only jwk is accepted`);
  const jwk = holderJwk(jws.header, alg, what, 'invalid_proof');

  // The library: JWT shape (its zod schemas), the signature through our callback, exp/nbf if present.
  try {
    await libraryIssuer(alg, jwk).verifyCredentialRequestJwtProof({
      issuerMetadata: issuerMetadataFor(input.credentialIssuer),
      jwt: jwt as string,
      now: input.now,
    });
  } catch (error) {
    const description = error instanceof Oauth2ServerErrorResponseError ? (error.errorResponse.error_description ?? 'invalid proof') : 'invalid proof';
    throw new CredentialIssuerError('invalid_proof', `${what}: ${description}`, { cause: error });
  }

  // Appendix F.1: aud REQUIRED, the Credential Issuer Identifier (the library also accepts an array containing it).
  if (jws.payload.aud !== input.credentialIssuer) throw new CredentialIssuerError('invalid_proof', `${what} aud is not this credential issuer`);
  // Appendix F.1: iat REQUIRED; its age is the issuer's policy (contract: 5 minutes back, 60 s ahead). The library checks neither.
  const iat = requiredNumericDate(jws.payload, 'iat', what, 'invalid_proof');
  const nowSeconds = input.now.getTime() / 1000;
  if (nowSeconds - iat > (input.maxAgeSeconds ?? 300)) throw new CredentialIssuerError('invalid_proof', `${what} iat is too old`);
  if (iat - nowSeconds > (input.futureSkewSeconds ?? 60)) throw new CredentialIssuerError('invalid_proof', `${what} iat is in the future`);
  // Appendix F.1: nonce = the c_nonce (§7). Required here, whatever the library does when not given one.
  const nonce = jws.payload.nonce;
  if (typeof nonce !== 'string') throw new CredentialIssuerError('invalid_proof', `${what} has no nonce`);
  if (!sameSecret(nonce, input.expectedNonce)) throw new CredentialIssuerError('invalid_nonce', `${what} nonce is not the c_nonce issued`);
  return jwk;
}

/**
 * Verifies every proof of `proofs.jwt` and returns the holders' public keys in the order of the proofs, one credential
 * to issue per key. All or nothing: one invalid proof refuses the request (OpenID4VCI 1.0 §8.3.1.2).
 */
export async function verifyKeyProofs(input: VerifyKeyProofsInput): Promise<HolderJwk[]> {
  const jwts = proofList(input.jwts, input.maxProofs);
  const keys: HolderJwk[] = [];
  const thumbprints = new Set<string>();
  for (const [i, jwt] of jwts.entries()) {
    const jwk = await verifyOne(jwt, i, input);
    // A batch is for unlinkable credentials, one key each (OpenID4VCI 1.0 §8.2 `proofs`): the same key twice
    // would give linkable copies. RFC 7638 thumbprints compare keys whatever their JSON spelling.
    const thumbprint = jwkThumbprint(jwk);
    if (thumbprints.has(thumbprint)) throw new CredentialIssuerError('invalid_proof', `key proof ${i} uses the key of an earlier proof`);
    thumbprints.add(thumbprint);
    keys.push(jwk);
  }
  return keys;
}
