import { readFileSync } from 'node:fs';
import { isFaceError } from '../errors.js';
import type { FaceEngine } from '../face-engine.js';
import type { CalibrationTable } from '../levels/calibration-table.js';
import { MATCHING_LEVELS, type MatchingLevel } from '../levels/match-levels.js';
import { chooseThresholds, TAIL_FRACTION, type ThresholdChoice } from './choose-thresholds.js';

/**
 * The calibration steps of `npm run calibrate:faces` that do not print or touch caches, so that a test can
 * run the same path on a handful of images with any engine.
 */

export interface LabelledImage {
  file: string;
  identity: string;
}

/** An image's embedding, or why it has none (a failure to acquire, excluded from the pairs). */
export type EmbeddingOutcome = { embedding: number[] } | { failure: string };

export interface ScoredPairs {
  usable: LabelledImage[];
  failed: LabelledImage[];
  genuine: number[];
  impostor: number[];
  genuinePairs: Array<{ a: string; b: string; score: number }>;
  /** Genuine pairs that could not be formed because an image had no usable face. */
  lostGenuinePairs: number;
}

/** Reads `labels.csv` (columns file,identity, in any order; a header row). */
export function readLabels(file: string): LabelledImage[] {
  const [header, ...rows] = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
  const columns = header.split(',');
  const fileColumn = columns.indexOf('file');
  const identityColumn = columns.indexOf('identity');
  if (fileColumn < 0 || identityColumn < 0) throw new Error(`${file}: expected columns file,identity`);
  return rows.map((row) => {
    const cells = row.split(',');
    return { file: cells[fileColumn], identity: cells[identityColumn] };
  });
}

/** Embeds one image; image problems (FaceError) become a failure, anything else is a bug and throws. */
export async function embedOutcome(engine: FaceEngine, image: Uint8Array): Promise<EmbeddingOutcome> {
  try {
    const { embedding } = await engine.embed(image);
    return { embedding: Array.from(embedding) };
  } catch (error) {
    if (!isFaceError(error)) throw error;
    return { failure: `${error.code}: ${error.message}` };
  }
}

/** Every pair of usable images, scored by the engine: same identity = genuine, else impostor. */
export function scorePairs(engine: FaceEngine, images: readonly LabelledImage[], outcomes: ReadonlyMap<string, EmbeddingOutcome>): ScoredPairs {
  const embeddingOf = (image: LabelledImage) => {
    const outcome = outcomes.get(image.file);
    return outcome && 'embedding' in outcome ? Float32Array.from(outcome.embedding) : undefined;
  };
  const usable = images.filter((image) => embeddingOf(image) !== undefined);
  const failed = images.filter((image) => embeddingOf(image) === undefined);
  const embeddings = usable.map((image) => embeddingOf(image)!);
  const result: ScoredPairs = { usable, failed, genuine: [], impostor: [], genuinePairs: [], lostGenuinePairs: 0 };
  for (let i = 0; i < usable.length; i++) {
    for (let j = i + 1; j < usable.length; j++) {
      const score = engine.similarity(embeddings[i], embeddings[j]);
      if (usable[i].identity === usable[j].identity) {
        result.genuine.push(score);
        result.genuinePairs.push({ a: usable[i].file, b: usable[j].file, score });
      } else result.impostor.push(score);
    }
  }
  result.lostGenuinePairs = countGenuinePairs(images) - result.genuine.length;
  return result;
}

export function countGenuinePairs(images: readonly LabelledImage[]): number {
  const counts = new Map<string, number>();
  for (const image of images) counts.set(image.identity, (counts.get(image.identity) ?? 0) + 1);
  return [...counts.values()].reduce((sum, k) => sum + (k * (k - 1)) / 2, 0);
}

export interface CalibrationResult {
  pairs: ScoredPairs;
  choice: ThresholdChoice;
  table: CalibrationTable;
}

/** Pairs → thresholds (chooseThresholds' policy) → the table `loadMatchLevelTable` reads. */
export function calibrate(
  engine: FaceEngine,
  images: readonly LabelledImage[],
  outcomes: ReadonlyMap<string, EmbeddingOutcome>,
  meta: { dataset: string; notes: (pairs: ScoredPairs, choice: ThresholdChoice) => string[]; date?: string },
): CalibrationResult {
  const pairs = scorePairs(engine, images, outcomes);
  if (pairs.genuine.length === 0 || pairs.impostor.length === 0) throw new Error('calibration needs at least one genuine and one impostor pair');
  const choice = chooseThresholds(pairs.genuine, pairs.impostor, engine.metric);
  const table: CalibrationTable = {
    engine: engine.name,
    metric: engine.metric,
    thresholds: Object.fromEntries(MATCHING_LEVELS.map((level) => [level, choice.levels[level].threshold])) as Record<MatchingLevel, number>,
    validatedLevels: choice.validatedLevels,
    calibratedOn: {
      dataset: meta.dataset,
      images: images.length,
      identities: new Set(images.map((i) => i.identity)).size,
      imagesWithoutUsableFace: pairs.failed.length,
      genuinePairs: pairs.genuine.length,
      impostorPairs: pairs.impostor.length,
      date: meta.date ?? new Date().toISOString().slice(0, 10),
    },
    levels: choice.levels,
    policy:
      'Per level: the stricter of (a) the score where the more conservative of two normal fits to impostor scores (all scores; top ' +
      `${TAIL_FRACTION * 100}% tail) predicts the target FAR and (b) when the data can bound FAR that low, the laxest threshold whose 95% ` +
      'Clopper-Pearson FAR upper bound meets the target. Levels the data cannot validate rest on (a) alone (extrapolated). FRR is measured, never traded for FAR.',
    notes: meta.notes(pairs, choice),
  };
  return { pairs, choice, table };
}
