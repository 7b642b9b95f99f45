import { createHash } from 'node:crypto';

/**
 * The stable subject of a document holder within a scheme: a hash of issuing state and document number,
 * so `sub` stays the same across logins with the same document and reveals neither.
 */
export function documentSubject(scheme: string, issuingState: string, documentNumber: string): string {
  return createHash('sha256').update(`${scheme}:${issuingState}:${documentNumber}`).digest('base64url').slice(0, 32);
}
