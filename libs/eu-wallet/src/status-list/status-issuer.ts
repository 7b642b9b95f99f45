import type { X509Certificate } from 'node:crypto';
import { WalletCheckError } from '../errors.js';

/** Who signed a credential, as its verifier established it: the signing certificate, the anchor, and its `iss` if any. */
export interface CredentialSigner {
  leaf: X509Certificate;
  anchor: X509Certificate;
  /** An SD-JWT VC (a JWT Referenced Token, which may carry `iss`) or an mdoc (which has no `iss` to compare). */
  format: 'sd-jwt' | 'mdoc';
  /** The SD-JWT VC's `iss`, absent when it has none. */
  iss?: string;
}

/** Who signed a Status List Token, as its check established it. */
export interface StatusListSigner {
  leaf: X509Certificate;
  anchor: X509Certificate;
  /** The token's `iss`, if it has one. */
  iss?: unknown;
}

/**
 * The Status List Token must come from the credential's issuer.
 *
 * Key (draft-ietf-oauth-status-list-14 §11.3, "Key Resolution and Trust Management", the version HAIP 1.0 pins; the
 * draft leaves the method to profiles, so this is our profile of its recommendations):
 * - the token's x5c leaf is the credential's signing certificate ("the same `x5c` value", the issuer acting as Status
 *   Issuer), or
 * - it chains to the same trust anchor and has the same subject: the same entity with another key (a rotated signer, a
 *   key kept for status lists). A Status Issuer that is another entity under the same CA (§11.3's second case, shown by
 *   an extended key usage whose OID -14 leaves TBD) is not recognised: there is nothing yet to check it by.
 * - Issuer metadata (`jwks`, `x5u`, `kid`) is not resolved: HAIP 1.0 wants `x5c` on the token.
 *
 * `iss` (draft-ietf-oauth-status-list-02 §5.1, the version @sd-jwt/jwt-status-list 0.19.0 cites): a token's `iss` must
 * equal the credential's, by simple string comparison (RFC 3986 §6.2.1), and so a token with `iss` needs a credential
 * with one (an mdoc has no `iss`: only the key rule applies to it). -02 also made `iss` REQUIRED in the token when the credential has one; -14 dropped the claim (the Status
 * Issuer may differ), so a token without `iss` is accepted when its key passes the rule above.
 */
export function requireSameIssuer(credential: CredentialSigner, token: StatusListSigner): void {
  const sameCertificate = token.leaf.raw.equals(credential.leaf.raw);
  const sameEntity = token.anchor.raw.equals(credential.anchor.raw) && token.leaf.subject === credential.leaf.subject;
  if (!sameCertificate && !sameEntity) {
    throw new WalletCheckError(
      'status_signer_mismatch',
      "the status list is not signed by the credential's issuer (another certificate subject or trust anchor)",
    );
  }
  if (credential.format === 'sd-jwt' && token.iss !== undefined && token.iss !== credential.iss) {
    throw new WalletCheckError('status_signer_mismatch', "the status list's iss is not the credential's iss");
  }
}
