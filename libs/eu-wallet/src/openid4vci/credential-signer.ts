/**
 * The issuer's signing key and certificate chain, and the ES256 JWS signature both the credentials and the status
 * list tokens use (RFC 7518 §3.4: R || S; HAIP 1.0: ES256, the key's certificate chain in x5c).
 */
import { sign, type KeyObject } from 'node:crypto';

export interface CredentialSigner {
  /** A P-256 private key. */
  privateKey: KeyObject;
  /** DER certificates, the signer's first, then intermediates; the root (the trust anchor) NOT included (HAIP 1.0). */
  chain: readonly Uint8Array[];
  /**
   * The key's id in the issuer's published key set (SD-JWT VC draft, "JWT VC Issuer Metadata": a verifier picks the
   * key by the header's `kid`); absent: the header names the key by `x5c` only.
   */
  kid?: string;
}

/** The header members that name the signer's key: `x5c` always, `kid` where the signer has one. */
export function keyHeader(signer: CredentialSigner): { x5c: string[]; kid?: string } {
  return { ...(signer.kid ? { kid: signer.kid } : {}), x5c: x5cOf(signer) };
}

/** RFC 7515 §4.1.6: base64 (not base64url) DER, leaf first. */
export function x5cOf(signer: CredentialSigner): string[] {
  if (signer.chain.length === 0) throw new Error('the signer has no certificate chain');
  return signer.chain.map((der) => Buffer.from(der).toString('base64'));
}

/** An ES256 signer as @sd-jwt wants it (base64url signature of the ASCII signing input). */
export function es256(signer: CredentialSigner): (signingInput: string) => string {
  const key = signer.privateKey;
  if (key.type !== 'private' || key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new Error('the signer key is not a P-256 private key (ES256)');
  return (signingInput) => sign('sha256', Buffer.from(signingInput, 'ascii'), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
}
