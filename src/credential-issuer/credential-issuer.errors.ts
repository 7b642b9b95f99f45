import { CredentialIssuerError as LibraryRefusal, oneLine } from '@identity-broker/eu-wallet';
import { AppError } from '../common/errors/app-error.js';

/**
 * The credential issuer's errors, in the error objects of OAuth 2.0 (RFC 6749 §5.2), DPoP (RFC 9449 §7.1) and
 * OpenID4VCI 1.0 (§8.3.1.2, §7.3). A description is one line: it may end up in a WWW-Authenticate header, where Node
 * refuses line breaks (and answers 500 where a 401 was meant).
 */
export class CredentialIssuerError extends AppError {
  constructor(status: number, code: string, description: string, headers?: Record<string, string>) {
    super(status, code, oneLine(description));
    if (headers) this.headers = headers;
  }
}

export const invalidGrant = (description: string) => new CredentialIssuerError(400, 'invalid_grant', description);
export const invalidRequest = (description: string) => new CredentialIssuerError(400, 'invalid_request', description);
export const unsupportedGrantType = () =>
  new CredentialIssuerError(400, 'unsupported_grant_type', 'the grant types are the pre-authorized code and authorization_code');
export const invalidDpopProof = (description: string, resource = false) =>
  new CredentialIssuerError(
    resource ? 401 : 400,
    'invalid_dpop_proof',
    description,
    resource ? { 'WWW-Authenticate': `DPoP error="invalid_dpop_proof", error_description="${oneLine(description)}"` } : undefined,
  );
/** RFC 9449 §7.1: a missing, unknown or wrongly bound token answers 401 with a DPoP challenge. */
export const invalidToken = (description: string) =>
  new CredentialIssuerError(401, 'invalid_token', description, {
    'WWW-Authenticate': `DPoP error="invalid_token", error_description="${oneLine(description)}", algs="ES256 ES384 ES512 EdDSA"`,
  });
export const invalidCredentialRequest = (description: string) => new CredentialIssuerError(400, 'invalid_credential_request', description);
export const invalidNonce = (description: string) => new CredentialIssuerError(400, 'invalid_nonce', description);
export const offerGone = () => new CredentialIssuerError(404, 'not_found', 'the credential offer is unknown, expired or already used');
export const credentialOfferUnavailable = () =>
  new CredentialIssuerError(
    409,
    'credential_offer_unavailable',
    'no credential can be offered: the verification did not pass, its record is gone, or the document has expired',
  );

/**
 * The library's refusal of a wallet's input (a key proof, a DPoP proof, the request's shape) as this issuer's error;
 * anything else is no refusal of input, and goes on as it is (a 500 there is a bug to see).
 */
export function fromLibrary(err: unknown, resource: boolean): unknown {
  if (!(err instanceof LibraryRefusal)) return err;
  if (err.code === 'invalid_dpop_proof') return invalidDpopProof(err.description, resource);
  return new CredentialIssuerError(400, err.code, err.description);
}
