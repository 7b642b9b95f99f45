/**
 * Why the credential issuer refused a request, as the error object of the endpoint answers it: OpenID4VCI 1.0 §8.3.1.2
 * (Credential Error Response), RFC 6749 §5.2 (token endpoint) and RFC 9449 §7.1 (`invalid_dpop_proof`). The
 * description is one line (no CR/LF, bounded), for it may go into a WWW-Authenticate header (RFC 6750 §3) or a log;
 * it never carries a claim value, a nonce, a code or a token.
 */
export type CredentialIssuerErrorCode =
  /** OpenID4VCI 1.0 §8.3.1.2: a key proof is missing or invalid (typ, alg, key, signature, aud, iat, keys not distinct). */
  | 'invalid_proof'
  /** OpenID4VCI 1.0 §8.3.1.2: the proof's nonce is not the c_nonce issued (missing, unknown, used, expired). */
  | 'invalid_nonce'
  /** OpenID4VCI 1.0 §8.3.1.2: the request is malformed (shape, parameters, too many proofs). */
  | 'invalid_credential_request'
  /** OpenID4VCI 1.0 §8.3.1.2: the credential_configuration_id is not one this issuer offers. */
  | 'unknown_credential_configuration'
  /** OpenID4VCI 1.0 §8.3.1.2: credential_response_encryption asked, which this issuer does not offer. */
  | 'invalid_encryption_parameters'
  /** RFC 9449 §5 and §7.1: the DPoP proof is missing or invalid. */
  | 'invalid_dpop_proof';

/** The longest description sent; longer ones are cut (a header value stays small). */
const MAX_DESCRIPTION = 300;

/**
 * One line of printable text for an HTTP header value or a log line: control characters (CR, LF, tab, NUL, DEL, C1)
 * become a space, runs of spaces one, and `"`/`\` (which would end or escape a quoted-string of RFC 9110 §5.6.4)
 * become `'`/`/`. The libraries' own error messages carry line breaks; never put them in a header without this.
 */
export function oneLine(text: string, maxLength = MAX_DESCRIPTION): string {
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/"/g, "'")
    .replace(/\\/g, '/')
    .replace(/ {2,}/g, ' ')
    .trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
}

export class CredentialIssuerError extends Error {
  override readonly name = 'CredentialIssuerError';
  /** The `error_description`: one line. */
  readonly description: string;
  constructor(
    readonly code: CredentialIssuerErrorCode,
    description: string,
    options?: { cause?: unknown },
  ) {
    const line = oneLine(description);
    super(line, options);
    this.description = line;
  }

  /** The error object of the answer (OpenID4VCI 1.0 §8.3.1.2, RFC 6749 §5.2), always a 4xx. */
  toResponse(): { error: CredentialIssuerErrorCode; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}
