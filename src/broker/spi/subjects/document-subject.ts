import { createHmac, randomBytes } from 'node:crypto';

/**
 * The stable subject of a document holder within a scheme: an HMAC-SHA256 of issuing state and document
 * number under SUBJECT_SECRET, so `sub` stays the same across logins with the same document and reveals
 * neither. Keyed because document numbers are few and guessable: an unkeyed hash of them is reversed by
 * brute force in seconds, and would let anyone compute the sub of any document.
 */
export function documentSubject(secret: string, scheme: string, issuingState: string, documentNumber: string): string {
  if (!secret || secret.length < 32) throw new RangeError('documentSubject needs SUBJECT_SECRET (at least 32 characters)');
  return createHmac('sha256', secret).update(`${scheme}:${issuingState}:${documentNumber}`).digest('base64url').slice(0, 32);
}

/** The scheme label of the document verifier's subjects; the service's own reusable credential names the same documents. */
export const VERIFIED_DOCUMENT_SUBJECT_SCHEME = 'document-verifier';

/**
 * The subject of a document the document verifier verified (issuing state and document number with the MRZ filler
 * removed, as its claims carry them): the same for a login with the document and one with the service's own
 * credential that names it, so a merchant sees one `sub` for the person either way.
 */
export function verifiedDocumentSubject(secret: string, issuingState: string, documentNumber: string): string {
  return documentSubject(secret, VERIFIED_DOCUMENT_SUBJECT_SCHEME, issuingState, documentNumber);
}

/**
 * The subject of a verification that failed: random for each transaction, so a forged or unverifiable
 * document never logs in as (or links to) the document it claims to be.
 */
export function transactionSubject(): string {
  return randomBytes(24).toString('base64url');
}
