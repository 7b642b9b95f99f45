import type { CloneDetectionMethod, ReportCheckId, ReportCheckOutcome } from '../../i18n/auth-files-report-checks-messages.js';
import { EXPLANATION } from '../../broker/spi/document-evidence/explanations.js';
import type { CrlEvidence } from '../../broker/spi/document-evidence/verification-record.js';

export interface ReportCheck {
  id: ReportCheckId;
  outcome: ReportCheckOutcome;
  /** Clone detection: the proof the chip gave (or attempted). */
  method?: Exclude<CloneDetectionMethod, 'none'>;
  /** Why a check did not pass or was not performed, when the outcome alone does not say it. */
  reason?: 'chipFailedFirst' | 'noFace' | 'chipOffersNone' | 'crlOutdated' | 'crlInGrace' | 'noCrl';
  /** The date the reason names (the nextUpdate an outdated CRL missed). */
  date?: Date;
}

export interface CheckInputs {
  /** result_explanation values of the verification (empty when it passed). */
  explanations: readonly string[];
  /** False when the chip failed and the face step never ran. */
  faceStepRan: boolean;
  /** How the chip proved it is genuine; undefined for a record that did not keep it. */
  cloneDetection?: CloneDetectionMethod;
  facematchLevel: number;
  /** How current the CRL behind the signer chain was; undefined for a record that did not keep it (no line then). */
  crl?: CrlEvidence;
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
    ...(input.crl ? [revocationList(input.crl)] : []),
    passedUnless('dataGroupHashes', EXPLANATION.DOCUMENT_HASHES),
    clone,
    passedUnless('documentType', EXPLANATION.DOCUMENT_TYPE),
    passedUnless('documentValidity', EXPLANATION.DOCUMENT_EXPIRED),
    ...faceChecks(input, failed),
  ];
}

/**
 * The CRL line: a CRL past its nextUpdate (plus the grace) failed the verification in production and passed with a
 * warning in customer-test; both say which date it missed, so the reader knows revocations since are unknown.
 */
function revocationList(crl: CrlEvidence): ReportCheck {
  const date = crl.nextUpdate ? { date: new Date(crl.nextUpdate) } : {};
  switch (crl.code) {
    case 'CRL_CURRENT':
      return { id: 'revocationList', outcome: 'passed' };
    case 'CRL_OUTDATED_IN_GRACE':
      return { id: 'revocationList', outcome: 'passed', reason: 'crlInGrace', ...date };
    case 'CRL_OUTDATED':
      return { id: 'revocationList', outcome: crl.refused ? 'failed' : 'warning', reason: 'crlOutdated', ...date };
    case 'CRL_NONE':
      return { id: 'revocationList', outcome: 'notPerformed', reason: 'noCrl' };
  }
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
