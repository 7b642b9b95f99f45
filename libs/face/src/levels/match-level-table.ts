import type { SimilarityMetric } from '../face-engine.js';
import type { CalibrationTable } from './calibration-table.js';
import { MATCHING_LEVELS, type MatchLevel, type MatchingLevel } from './match-levels.js';

/** Maps an engine's similarity score to a match level 0-9 using that engine's calibration table. */
export class MatchLevelTable {
  readonly engine: string;
  readonly metric: SimilarityMetric;
  private readonly thresholds: ReadonlyMap<MatchingLevel, number>;
  private readonly validated: ReadonlySet<MatchingLevel>;

  constructor(readonly calibration: CalibrationTable) {
    this.engine = calibration.engine;
    this.metric = calibration.metric;
    if (this.metric !== 'cosine-similarity' && this.metric !== 'euclidean-distance') {
      throw new RangeError(`calibration for ${this.engine}: unknown metric ${String(this.metric)}`);
    }
    const thresholds = new Map<MatchingLevel, number>();
    for (const level of MATCHING_LEVELS) {
      const threshold = calibration.thresholds?.[level];
      if (typeof threshold !== 'number' || !Number.isFinite(threshold)) {
        throw new RangeError(`calibration for ${this.engine}: threshold for level ${level} missing or not a number`);
      }
      const previous = thresholds.get((level - 1) as MatchingLevel);
      // A stricter level must never accept a score a laxer level rejects.
      if (previous !== undefined && !this.isAtLeastAsStrict(threshold, previous)) {
        throw new RangeError(`calibration for ${this.engine}: level ${level} threshold ${threshold} is laxer than level ${level - 1} (${previous})`);
      }
      thresholds.set(level, threshold);
    }
    this.thresholds = thresholds;
    this.validated = new Set(calibration.validatedLevels ?? []);
  }

  /** Highest level whose threshold the score meets (inclusive); 0 when none. NaN maps to 0. */
  level(score: number): MatchLevel {
    let result: MatchLevel = 0;
    for (const level of MATCHING_LEVELS) {
      if (this.meets(score, this.threshold(level))) result = level;
      else break;
    }
    return result;
  }

  threshold(level: MatchingLevel): number {
    return this.thresholds.get(level)!;
  }

  /** Whether the calibration data vouches for this level's FAR (otherwise it is extrapolated). */
  isValidated(level: MatchingLevel): boolean {
    return this.validated.has(level);
  }

  private meets(score: number, threshold: number): boolean {
    return this.metric === 'euclidean-distance' ? score <= threshold : score >= threshold;
  }

  private isAtLeastAsStrict(threshold: number, previous: number): boolean {
    return this.metric === 'euclidean-distance' ? threshold <= previous : threshold >= previous;
  }
}
