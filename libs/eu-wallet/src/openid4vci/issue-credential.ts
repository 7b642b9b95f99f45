/**
 * Issues the verified identity credential as an SD-JWT VC (SD-JWT VC draft; RFC 9901) with @sd-jwt/sd-jwt-vc: header
 * typ dc+sd-jwt, alg ES256, x5c the signer's chain (HAIP 1.0) and its kid in the issuer's metadata; in the clear iss, vct, exp, cnf.jwk (RFC 7800 §3.2),
 * status.status_list (Token Status List, "Referenced Token") and _sd_alg; every claim of the contract its own
 * disclosure. No iat and no nbf: equal times across one person's batch would link its credentials (the contract).
 */
import { createHash, randomBytes } from 'node:crypto';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { es256, keyHeader, type CredentialSigner } from './credential-signer.js';
import type { HolderJwk } from './holder-jws.js';
import { verifiedIdentityClaims, verifiedIdentityDisclosureFrame, type VerifiedIdentityClaims } from './verified-identity.js';

export interface IssueVerifiedIdentityCredentialInput {
  signer: CredentialSigner;
  /** The Credential Issuer Identifier: `iss`. */
  credentialIssuer: string;
  vct: string;
  claims: VerifiedIdentityClaims;
  /** One holder key from verifyKeyProofs: `cnf.jwk`. */
  holderJwk: HolderJwk;
  /** This credential's entry in a status list. */
  status: { uri: string; idx: number };
  /** Rounded down to 00:00 UTC of its day for `exp` (every credential of a day expires at one instant). */
  expiresAt: Date;
}

const DAY_SECONDS = 86_400;
const sha256 = (data: string | ArrayBuffer) =>
  new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data))
      .digest(),
  );
/** RFC 9901 §4.2.1: a salt of at least 128 bits from a CSPRNG; @sd-jwt asks for 16 bytes. */
const salt = (bytes: number) => randomBytes(Math.max(bytes, 16)).toString('base64url');

/** The compact SD-JWT VC `<issuer JWT>~<disclosure>~...~` (RFC 9901 §4), ready for `credentials[].credential`. */
export async function issueVerifiedIdentityCredential(input: IssueVerifiedIdentityCredentialInput): Promise<string> {
  if (!Number.isSafeInteger(input.status.idx) || input.status.idx < 0) throw new Error('status idx is not a non-negative integer');
  const expSeconds = Math.floor(input.expiresAt.getTime() / 1000 / DAY_SECONDS) * DAY_SECONDS;
  if (!Number.isFinite(expSeconds)) throw new Error('expiresAt is not a date');
  const claims = verifiedIdentityClaims(input.claims);
  const issuer = new SDJwtVcInstance({ signer: es256(input.signer), signAlg: 'ES256', hasher: sha256, hashAlg: 'sha-256', saltGenerator: salt });
  const payload = {
    iss: input.credentialIssuer,
    vct: input.vct,
    exp: expSeconds,
    cnf: { jwk: { ...input.holderJwk } },
    status: { status_list: { idx: input.status.idx, uri: input.status.uri } },
    ...claims,
  };
  return issuer.issue(payload, verifiedIdentityDisclosureFrame(claims) as never, { header: keyHeader(input.signer) });
}
