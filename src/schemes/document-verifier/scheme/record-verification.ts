import type { VerificationRecordClaims } from '../../../broker/spi/document-evidence/verification-record.js';
import { type DocumentCheck, identityDocumentEvidence } from '../../../broker/spi/identity-assurance/identity-document-evidence.js';
import type { IdentityVerification } from '../../../broker/spi/identity-assurance/identity-verification.js';

/**
 * What a document verification states in `verified_claims`: the checks the record shows were passed, under the
 * record's id, which is the transaction id of its evidence report (auth_files_url's `tid`, spec 4.6) so an auditor
 * can join the two. A failed verification states nothing: its claims are not verified (spec 2.1 authentication_result).
 */
export function recordVerification(recordId: string, record: VerificationRecordClaims): IdentityVerification | undefined {
  if (record.result !== 'pass') return undefined;
  const checks: DocumentCheck[] = ['passive-authentication'];
  if (record.cloneDetectionPassed && record.cloneDetection && record.cloneDetection !== 'none') checks.push(record.cloneDetection);
  // A passed face step compared the live face with the chip photo after the liveness rules accepted the frames.
  if (record.faceStepRan) checks.push('face-match', 'liveness');
  return {
    time: record.completedAt,
    process: recordId,
    test: record.specimen === true,
    evidence: [identityDocumentEvidence(record.claims, recordId, checks, record.completedAt)],
  };
}
