import type { DocumentType } from '../../../verifier-claims/document-type.js';
import type { DocumentEvidence, EvidenceCheck, VerificationOffer } from './identity-verification.js';
import { CHECK_METHODS, DOCUMENT_TYPES } from './predefined-values.js';

/** The checks of a chip-and-face verification, by name: each becomes one `check_details` entry (IDA Schema §5.4.4.1). */
export type DocumentCheck = 'passive-authentication' | 'active-authentication' | 'chip-authentication' | 'face-match' | 'liveness';

const METHOD: Readonly<Record<DocumentCheck, string>> = {
  // ICAO 9303-11 §5.1 (the SOD's signature chain to a CSCA, the data groups' hashes): the chip's cryptographic features.
  'passive-authentication': CHECK_METHODS.cryptographic,
  // 9303-11 §6.1, §6.2: the chip proves its private key, so it is not a copy.
  'active-authentication': CHECK_METHODS.cryptographic,
  'chip-authentication': CHECK_METHODS.cryptographic,
  // The live face against the chip's photo (DG2), automated and remote; and that face being live.
  'face-match': CHECK_METHODS.biometricRemote,
  liveness: CHECK_METHODS.biometricRemote,
};

const SPEC_DATE = /^(\d{2})\.(\d{2})\.(\d{4})$/;
const isoDate = (date: unknown) => (typeof date === 'string' && SPEC_DATE.test(date) ? date.replace(SPEC_DATE, '$3-$2-$1') : undefined);
const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/**
 * Evidence of type `document` for a document read and checked by the service (the document verifier, and the test
 * eID that imitates it): the document from its spec 2.1 claims (document_type, document_number, personal_number,
 * date_of_expiry, issuing_country), the checks with the transaction id and check name as
 * `check_id`, so that an auditor finds each in that transaction's evidence report.
 */
export function identityDocumentEvidence(
  claims: Readonly<Record<string, unknown>>,
  transactionId: string,
  checks: readonly DocumentCheck[],
  time: string,
): DocumentEvidence {
  const type = DOCUMENT_TYPES[claims.document_type as DocumentType];
  const country = text(claims.issuing_country)?.replace(/</g, '');
  const check_details: EvidenceCheck[] = checks.map((check) => ({ check_method: METHOD[check], check_id: `${transactionId}.${check}`, time }));
  if (!type) return { type: 'document', check_details };
  const details: NonNullable<DocumentEvidence['document_details']> = { type };
  if (text(claims.document_number)) details.document_number = text(claims.document_number);
  if (text(claims.personal_number)) details.personal_number = text(claims.personal_number);
  if (isoDate(claims.date_of_expiry)) details.date_of_expiry = isoDate(claims.date_of_expiry);
  if (country)
    details.issuer = {
      country_code: country === 'D' ? 'DEU' : country,
      ...(text(claims.interpreted_issuing_country) ? { country: text(claims.interpreted_issuing_country) } : {}),
    };
  return { type: 'document', check_details, document_details: details };
}

/** What a chip-and-face verification can state (the document verifier, the test eID). */
export const IDENTITY_DOCUMENT_OFFER: VerificationOffer = Object.freeze<VerificationOffer>({
  evidence: ['document'],
  documents: Object.values(DOCUMENT_TYPES),
  documentCheckMethods: [...new Set(Object.values(METHOD))],
});
