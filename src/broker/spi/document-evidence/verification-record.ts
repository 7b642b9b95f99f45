import type { CrlFreshnessCode } from '@identity-broker/icao9303';

/*
 * What a document verification leaves behind, as the document verifier seals it and as front doors read it through
 * DocumentEvidence (the evidence report, the credential issuer): declared here, below both, so that neither imports
 * the other.
 */

/** Everything kept about one verification (spec 1.9); only ever stored sealed. */
export interface VerificationRecordData {
  clientId: string;
  documentPhoto: string;
  documentPhotoType: string;
  /** The frame facing the camera; the other liveness frames are discarded once evaluated. Absent when the chip step failed (no face step). */
  selfie?: string;
  selfieEmbedding: number[];
  claims: Record<string, unknown>;
  subject: string;
  birthDate?: string;
  result: 'pass' | 'fail';
  explanations: string[];
  facematchLevel: number;
  eidasHigh: boolean;
  /** The chip proved its key (Active or Chip Authentication, 9303-11 §6.1/§6.2); absent in records older than this field. */
  cloneDetectionPassed?: boolean;
  /** How the chip proved it is genuine, or 'none' when its SOD offers no proof; absent in older records. */
  cloneDetection?: 'active-authentication' | 'chip-authentication' | 'none';
  /** A specimen document (its signer chains to this environment's specimen CSCA, or the ICAO specimen state UTO); absent in older records. */
  specimen?: boolean;
  completedAt: string;
  /** Support detail with ICAO clauses; never sent to merchants. */
  failures: string[];
  /** How current the signer chain's CRL was (RFC 5280 §6.3.3); absent in older records. */
  crl?: CrlEvidence;
  /** Support detail of what passed with a warning (an outdated CRL accepted in customer-test); absent in older records. */
  warnings?: string[];
  /** Scopes of the login's authorization request (what its ID token could release); absent in older records. */
  scopes?: string[];
}

/** What of a record is an image, or drawn from one: sealed apart from the rest, and read only where shown (the evidence report). */
export type VerificationRecordImageField = 'documentPhoto' | 'documentPhotoType' | 'selfie' | 'selfieEmbedding';

/**
 * A record without its images: the claims and verdict, what the login, the credential issuer and support read.
 * `faceStepRan` says whether a selfie is kept (a face step ran), so that no reader of the claims needs the selfie.
 */
export type VerificationRecordClaims = Omit<VerificationRecordData, VerificationRecordImageField> & { faceStepRan: boolean };

/** How current the CRL behind the signer chain was (RFC 5280 §6.3.3), as the record keeps it. */
export interface CrlEvidence {
  code: CrlFreshnessCode;
  /** the nextUpdate the deciding CRL had (missed, for the outdated codes) */
  nextUpdate?: string;
  /** the verification failed for it (production) */
  refused: boolean;
}
