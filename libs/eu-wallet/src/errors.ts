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
