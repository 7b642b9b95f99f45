/**
 * The document_type claim: a readable type decided from the MRZ document code.
 *
 * ICAO 9303 fixes only the first letter of the code (P passport, V visa, I/A/C official travel
 * documents of ID-card size) and leaves the second letter to the issuing state; the few
 * second-letter conventions that are stable across states are recognised below.
 */

export type DocumentType = 'PASSPORT' | 'ID_CARD' | 'RESIDENCE_PERMIT' | 'CREW_MEMBER_CERTIFICATE' | 'VISA' | 'DRIVERS_LICENSE' | 'OTHER';

/**
 * Two-letter codes that override the first-letter rule:
 * - IR, AR: residence permits (IR e.g. UK, FR, NL, BE; AR e.g. the German eAT);
 * - AC: crew member certificate (ICAO 9303-5 names this code).
 */
const BY_FULL_CODE: Readonly<Record<string, DocumentType>> = Object.freeze({
  IR: 'RESIDENCE_PERMIT',
  AR: 'RESIDENCE_PERMIT',
  AC: 'CREW_MEMBER_CERTIFICATE',
});

/**
 * First-letter rule: P* passports of any kind (PO official, PD diplomatic, ...); I*, A*, C* ID
 * cards; V* visas; D* driving licences (ISO 18013, MRZ-like code 'D'). Anything else is 'OTHER'
 * rather than a guess.
 */
const BY_FIRST_LETTER: Readonly<Record<string, DocumentType>> = Object.freeze({
  P: 'PASSPORT',
  I: 'ID_CARD',
  A: 'ID_CARD',
  C: 'ID_CARD',
  V: 'VISA',
  D: 'DRIVERS_LICENSE',
});

/** 'P', 'P<', 'PO' -> PASSPORT; 'ID' -> ID_CARD; 'IR' -> RESIDENCE_PERMIT; see the tables above. */
export function documentType(documentCode: string): DocumentType {
  const code = documentCode.replace(/</g, '').trim().toUpperCase();
  return BY_FULL_CODE[code] ?? BY_FIRST_LETTER[code.charAt(0)] ?? 'OTHER';
}
