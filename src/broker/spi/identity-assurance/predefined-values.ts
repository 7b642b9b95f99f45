import type { DocumentType } from '../../../verifier-claims/document-type.js';

/*
 * The identifiers the service uses inside `verified_claims`: the predefined values the eKYC-IDA working group keeps
 * (openid.net/wg/ekyc-ida/identifiers) where one fits, our own URNs (in the spec's `urn:svc:` family, beside the acr
 * values of spec 2.1) where none does. docs/identity-assurance.md explains each.
 */

/** Every test login (test eID, a specimen document, any run in customer-test): unmistakable for a real framework. */
export const TEST_TRUST_FRAMEWORK = 'urn:svc:trust-framework:test';
/** A real scheme the operator has not tied to a trust framework: verified by the service's own documented rules, no more. */
export const SERVICE_TRUST_FRAMEWORK = 'urn:svc:trust-framework:service';

export const CHECK_METHODS = {
  /** Validation of the cryptographic security features of the evidence (the chip's signatures, hashes, its key). */
  cryptographic: 'vcrypt',
  /** Biometric verification, remote and automated (the live face against the chip photo; the liveness of that face). */
  biometricRemote: 'bvr',
  /** Verification of the person through an authentication with the evidence (a wallet's key-bound credential, an eID). */
  authentication: 'auth',
} as const;

/** Document types of the predefined values, by the document_type claim (spec 2.1); types without one have no details. */
export const DOCUMENT_TYPES: Readonly<Partial<Record<DocumentType, string>>> = Object.freeze({
  PASSPORT: 'passport',
  ID_CARD: 'idcard',
  RESIDENCE_PERMIT: 'residence_permit',
  DRIVERS_LICENSE: 'driving_permit',
  VISA: 'visa',
});

/**
 * The record type of an upstream eID login (no predefined value names one): the person authenticated with an eID the
 * upstream provider issued. A wallet credential's record type is its own (the SD-JWT VC's vct, the mdoc's doctype).
 */
export const EID_LOGIN_RECORD = 'urn:svc:record-type:eid-login';
