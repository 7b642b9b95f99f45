import type { CloneDetectionMethod, ReportCheckId, ReportCheckOutcome } from '../../i18n/auth-files-report-checks-messages.js';
import { EXPLANATION } from '../../verifier/verification/explanations.js';

export interface ReportCheck {
  id: ReportCheckId;
  outcome: ReportCheckOutcome;
  /** Clone detection: the proof the chip gave (or attempted). */
  method?: Exclude<CloneDetectionMethod, 'none'>;
  /** Why a check did not pass or was not performed, when the outcome alone does not say it. */
  reason?: 'chipFailedFirst' | 'noFace' | 'chipOffersNone';
}

export interface CheckInputs {
  /** result_explanation values of the verification (empty when it passed). */
  explanations: readonly string[];
  /** False when the chip failed and the face step never ran. */
  faceStepRan: boolean;
  /** How the chip proved it is genuine; undefined for a record that did not keep it. */
  cloneDetection?: CloneDetectionMethod;
  facematchLevel: number;
}

/**
 * Each check of a verification with its outcome, for the evidence report. Every failed chip check is listed in the
 * explanations (the ICAO library runs them all and reports each failure), so a check without its explanation passed;
 * the face checks only ran when the chip passed.
 */
export function reportChecks(input: CheckInputs): ReportCheck[] {
  const failed = (code: string) => input.explanations.includes(code);
  const passedUnless = (id: ReportCheckId, code: string): ReportCheck => ({ id, outcome: failed(code) ? 'failed' : 'passed' });
  const method = input.cloneDetection === 'none' ? undefined : input.cloneDetection;
  const clone: ReportCheck = failed(EXPLANATION.CLONE_DETECTION)
    ? { id: 'cloneDetection', outcome: 'failed', method }
    : input.cloneDetection === 'none'
      ? { id: 'cloneDetection', outcome: 'noneOffered', reason: 'chipOffersNone' }
      : { id: 'cloneDetection', outcome: 'passed', method };
  return [
    passedUnless('documentSignature', EXPLANATION.DOCUMENT_SIGNATURE),
    passedUnless('signerChain', EXPLANATION.COUNTRY_SIGNER_CHAIN),
    passedUnless('dataGroupHashes', EXPLANATION.DOCUMENT_HASHES),
    clone,
    passedUnless('documentType', EXPLANATION.DOCUMENT_TYPE),
    passedUnless('documentValidity', EXPLANATION.DOCUMENT_EXPIRED),
    ...faceChecks(input, failed),
  ];
}

function faceChecks(input: CheckInputs, failed: (code: string) => boolean): ReportCheck[] {
  if (!input.faceStepRan) return (['faceMatch', 'liveness'] as const).map((id) => ({ id, outcome: 'notPerformed', reason: 'chipFailedFirst' }));
  const noFace = failed(EXPLANATION.NO_FACE);
  const faceMatch: ReportCheck = noFace
    ? { id: 'faceMatch', outcome: 'failed', reason: 'noFace' }
    : { id: 'faceMatch', outcome: failed(EXPLANATION.FACE_MATCH) || input.facematchLevel < 1 ? 'failed' : 'passed' };
  // Without a usable face the movements and presentation scores were never judged.
  const liveness: ReportCheck = failed(EXPLANATION.LIVENESS)
    ? { id: 'liveness', outcome: 'failed' }
    : noFace
      ? { id: 'liveness', outcome: 'notPerformed', reason: 'noFace' }
      : { id: 'liveness', outcome: 'passed' };
  return [faceMatch, liveness];
}
