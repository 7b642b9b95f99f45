import type {
  VerificationRecordClaims,
  VerificationRecordData,
  VerificationRecordImageField,
} from '../../../broker/spi/document-evidence/verification-record.js';

/*
 * A record is sealed in two parts, each under a SecretBox context of its own bound to the record id: the claims (all
 * but the images; a few hundred bytes, what the login and the credential issuer read) and the images (the chip photo,
 * the selfie and its face embedding; tens of kilobytes, read only by the evidence report). Distinct contexts keep one
 * part from being passed off as the other, or as a record from before the split, or as another record's part.
 */

/** The whole record, in rows written before the split (sealed_claims NULL); such rows are gone after retention (at most 90 days). */
export const wholeRecordContext = (id: string) => `verification-record:${id}`;
export const claimsContext = (id: string) => `verification-record-claims:${id}`;
export const imagesContext = (id: string) => `verification-record-images:${id}`;

export type VerificationRecordImages = Pick<VerificationRecordData, VerificationRecordImageField>;

/** The record as its two parts, each to be sealed apart. */
export function splitRecord(data: VerificationRecordData): { claims: VerificationRecordClaims; images: VerificationRecordImages } {
  const { documentPhoto, documentPhotoType, selfie, selfieEmbedding, ...rest } = data;
  return {
    claims: { ...rest, faceStepRan: selfie !== undefined },
    images: { documentPhoto, documentPhotoType, ...(selfie === undefined ? {} : { selfie }), selfieEmbedding },
  };
}

/** The whole record from its two parts (the inverse of splitRecord). */
export function joinRecord(claims: VerificationRecordClaims, images: VerificationRecordImages): VerificationRecordData {
  const { faceStepRan: _derived, ...rest } = claims;
  return { ...rest, ...images };
}

/** The claims of a record sealed whole (before the split). */
export function claimsOfWhole(data: VerificationRecordData): VerificationRecordClaims {
  return splitRecord(data).claims;
}
