/**
 * Why a presentation was refused. One error type for the whole library: `code` is stable for programs (the scheme
 * maps it to the broker's failure and to metrics), `message` says what a developer needs and never carries a claim
 * value, for it may reach a log.
 */
export type WalletCheckCode =
  /** Not the shape a specification gives (JWT, disclosure, CBOR, vp_token, request or response parameters). */
  | 'malformed'
  /** A signature (issuer, key binding, device, status list) does not verify. */
  | 'invalid_signature'
  /** The issuer's certificate chain does not end at a configured trust anchor, or is not valid now. */
  | 'untrusted_issuer'
  /** A certificate of the issuer's chain (Document Signer, IACA, x5c leaf or intermediate) is on its CA's CRL. */
  | 'certificate_revoked'
  /** production: a CRL that applies to the issuer's chain could not be fetched, did not verify, or is past nextUpdate. */
  | 'revocation_unknown'
  /** An SD-JWT VC's `iss` is not an identifier its x5c leaf certificate names (SAN URI, or an https URI's DNS name). */
  | 'issuer_mismatch'
  /** The Token Status List was signed by someone else than the credential's issuer, or names another `iss`. */
  | 'status_signer_mismatch'
  /** The credential is expired or not yet valid. */
  | 'expired'
  /** The status list says revoked or suspended, or the status cannot be established. */
  | 'revoked'
  /** The presentation is not bound to this request: nonce, audience, transcript, state, key-binding freshness. */
  | 'wrong_binding'
  /** Not what was asked (credential type, claims) or not what the service accepts (typ, vct, docType, alg, enc). */
  | 'unexpected_credential'
  /** A response already used, or used in another browser. */
  | 'replayed';

export class WalletCheckError extends Error {
  override readonly name = 'WalletCheckError';
  constructor(
    readonly code: WalletCheckCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
