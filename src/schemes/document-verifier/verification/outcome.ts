import type { ChipEvidence } from './chip-verification.service.js';
import type { FaceOutcome } from './face-verification.service.js';

export interface VerificationVerdict {
  result: 'pass' | 'fail';
  explanations: string[];
  eidasHigh: boolean;
}

/**
 * pass when nothing failed; eIDAS high (spec 5.8) only when it was asked for and passive authentication,
 * clone detection, liveness and a face match at or above the configured level all hold.
 */
export function decideVerdict(chip: ChipEvidence, face: FaceOutcome, acrHighRequested: boolean, minLevelForHigh: number): VerificationVerdict {
  const explanations = [...new Set([...chip.explanations, ...face.explanations])];
  const result = explanations.length === 0 ? 'pass' : 'fail';
  const eidasHigh =
    acrHighRequested &&
    result === 'pass' &&
    chip.passiveAuthentication &&
    chip.cloneDetectionPassed &&
    face.livenessPassed &&
    face.facematchLevel >= minLevelForHigh;
  return { result, explanations, eidasHigh };
}

/** A chip step that failed ends the verification there (no face work is done for it): fail, never eIDAS high. */
export function chipFailureVerdict(chip: ChipEvidence): VerificationVerdict {
  return { result: 'fail', explanations: [...new Set(chip.explanations)], eidasHigh: false };
}
