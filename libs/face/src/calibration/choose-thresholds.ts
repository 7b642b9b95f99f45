import type { SimilarityMetric } from '../face-engine.js';
import type { LevelCalibration } from '../levels/calibration-table.js';
import { MATCHING_LEVELS, TARGET_FAR, TARGET_FRR, type MatchingLevel } from '../levels/match-levels.js';
import { binomialUpperBound, mean, normalCdf, normalQuantile, standardDeviation } from './statistics.js';

/** Normal model of the impostor score upper tail, in "higher = more similar" orientation. */
export interface TailModel {
  mean: number;
  sd: number;
}

export interface ThresholdChoice {
  levels: Record<MatchingLevel, LevelCalibration>;
  validatedLevels: MatchingLevel[];
  /** Normal fit to all impostor scores. */
  fullFit: TailModel;
  /** Normal fit to the top TAIL_FRACTION of impostor scores (normal probability plot regression). */
  tailFit: TailModel;
}

/** Share of impostor scores (the most similar ones) used for the tail fit. */
export const TAIL_FRACTION = 0.1;
const CONFIDENCE = 0.95;
const DECIMALS = 4;

/**
 * Calibration policy, per level with target FAR f (spec 2.2):
 * 1. Model threshold: the score whose predicted FAR is f under the MORE conservative of two
 *    normal models of the impostor scores (fit to all of them, and fit to their upper tail).
 * 2. Empirical threshold, only when the data can show FAR <= f at all (95% Clopper-Pearson upper
 *    bound with zero false accepts <= f): the laxest threshold whose upper bound is still <= f.
 * 3. The level's threshold is the stricter of the two; levels the data cannot validate use the
 *    model threshold alone and are marked extrapolated. Thresholds never get laxer as levels rise.
 * FRR is measured, never traded against FAR: a level whose FRR is >= 1% is reported, not loosened.
 */
export function chooseThresholds(genuineScores: readonly number[], impostorScores: readonly number[], metric: SimilarityMetric): ThresholdChoice {
  const orient = metric === 'euclidean-distance' ? (s: number) => -s : (s: number) => s;
  const genuine = genuineScores.map(orient);
  const impostorsDescending = impostorScores.map(orient).sort((a, b) => b - a);
  const n = impostorsDescending.length;
  const fullFit = { mean: mean(impostorsDescending), sd: standardDeviation(impostorsDescending) };
  const tailFit = fitUpperTail(impostorsDescending);
  const modelledFar = (t: number) => Math.max(upperTail(fullFit, t), upperTail(tailFit, t));

  const levels = {} as Record<MatchingLevel, LevelCalibration>;
  let previous = -Infinity;
  for (const level of MATCHING_LEVELS) {
    const targetFar = TARGET_FAR[level];
    const z = normalQuantile(1 - targetFar);
    const modelThreshold = Math.max(fullFit.mean + fullFit.sd * z, tailFit.mean + tailFit.sd * z);
    const empiricalThreshold = laxestValidatedThreshold(impostorsDescending, targetFar);
    let oriented = empiricalThreshold === undefined ? modelThreshold : Math.max(modelThreshold, empiricalThreshold);
    const method = empiricalThreshold !== undefined && empiricalThreshold >= modelThreshold ? 'empirical' : 'extrapolated';
    oriented = Math.max(roundUp(oriented), previous);
    previous = oriented;

    const falseAccepts = impostorsDescending.filter((s) => s >= oriented).length;
    const falseRejects = genuine.filter((s) => s < oriented).length;
    const farUpperBound95 = binomialUpperBound(falseAccepts, n, CONFIDENCE);
    const measuredFrr = falseRejects / genuine.length;
    levels[level] = {
      targetFar,
      threshold: metric === 'euclidean-distance' ? -oriented : oriented,
      method,
      farValidated: farUpperBound95 <= targetFar,
      falseAccepts,
      impostorPairs: n,
      measuredFar: falseAccepts / n,
      farUpperBound95,
      modelledFar: modelledFar(oriented),
      falseRejects,
      genuinePairs: genuine.length,
      measuredFrr,
      frrBelowTarget: measuredFrr < TARGET_FRR,
    };
  }
  const validatedLevels = MATCHING_LEVELS.filter((level) => levels[level].farValidated);
  return { levels, validatedLevels, fullFit, tailFit };
}

/** Laxest threshold t (accept when score >= t) whose FAR upper bound is <= target, if any. */
function laxestValidatedThreshold(impostorsDescending: readonly number[], targetFar: number): number | undefined {
  const n = impostorsDescending.length;
  if (binomialUpperBound(0, n, CONFIDENCE) > targetFar) return undefined;
  let allowed = 0;
  while (allowed + 1 < n && binomialUpperBound(allowed + 1, n, CONFIDENCE) <= targetFar) allowed++;
  // Accept the `allowed` highest impostor scores at most: sit just above the next one.
  return impostorsDescending[allowed] + 10 ** -DECIMALS;
}

/**
 * Regresses the top TAIL_FRACTION of impostor scores on their normal quantiles (a normal
 * probability plot); a heavier-than-normal tail shows up as a larger slope (sd).
 */
function fitUpperTail(descending: readonly number[]): TailModel {
  const n = descending.length;
  const count = Math.max(10, Math.floor(n * TAIL_FRACTION));
  const xs: number[] = [];
  const ys: number[] = [];
  for (let rank = 0; rank < count && rank < n; rank++) {
    xs.push(normalQuantile(1 - (rank + 0.5) / n));
    ys.push(descending[rank]);
  }
  const mx = mean(xs);
  const my = mean(ys);
  const slope = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i] - my), 0) / xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  return { mean: my - slope * mx, sd: slope };
}

function upperTail(model: TailModel, threshold: number): number {
  return normalCdf((model.mean - threshold) / model.sd);
}

function roundUp(value: number): number {
  const factor = 10 ** DECIMALS;
  return Math.ceil(value * factor) / factor;
}
