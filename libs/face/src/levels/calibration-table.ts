import type { SimilarityMetric } from '../face-engine.js';
import type { MatchingLevel } from './match-levels.js';

/** How a level's threshold was set (see scripts/calibrate-faces.ts for the policy). */
export type ThresholdMethod = 'empirical' | 'extrapolated';

export interface LevelCalibration {
  targetFar: number;
  threshold: number;
  method: ThresholdMethod;
  /** True when the calibration data alone bounds FAR below the target (95% one-sided). */
  farValidated: boolean;
  falseAccepts: number;
  impostorPairs: number;
  measuredFar: number;
  farUpperBound95: number;
  /** FAR the fitted impostor tail model predicts at this threshold. */
  modelledFar: number;
  falseRejects: number;
  genuinePairs: number;
  measuredFrr: number;
  frrBelowTarget: boolean;
}

/**
 * Per-engine threshold table, written by `npm run calibrate:faces` to
 * libs/face/calibration/<engine>.json. A new engine ships its own table.
 */
export interface CalibrationTable {
  engine: string;
  metric: SimilarityMetric;
  thresholds: Record<MatchingLevel, number>;
  /** Levels whose FAR the calibration data can vouch for; the others rest on extrapolation. */
  validatedLevels: MatchingLevel[];
  calibratedOn: {
    dataset: string;
    images: number;
    identities: number;
    imagesWithoutUsableFace: number;
    genuinePairs: number;
    impostorPairs: number;
    date: string;
  };
  levels?: Partial<Record<MatchingLevel, LevelCalibration>>;
  policy?: string;
  notes?: string[];
}
