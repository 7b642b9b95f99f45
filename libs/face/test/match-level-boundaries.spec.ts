import fc from 'fast-check';
import { type CalibrationTable, loadMatchLevelTable, MatchLevelTable, MATCHING_LEVELS } from '@identity-broker/face';

function table(metric: CalibrationTable['metric'], thresholds: number[]): MatchLevelTable {
  return new MatchLevelTable({
    engine: 'test-engine',
    metric,
    thresholds: Object.fromEntries(thresholds.map((t, i) => [i + 1, t])) as CalibrationTable['thresholds'],
    validatedLevels: [1, 2, 3],
    calibratedOn: { dataset: 'x', images: 0, identities: 0, imagesWithoutUsableFace: 0, genuinePairs: 0, impostorPairs: 0, date: '2026-01-01' },
  });
}

const distances = table('euclidean-distance', [0.6, 0.58, 0.56, 0.54, 0.52, 0.5, 0.48, 0.46, 0.44]);
const similarities = table('cosine-similarity', [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7]);
const shipped = loadMatchLevelTable('face-api-resnet128');

describe('match level boundaries', () => {
  it('puts each threshold itself in its level and the next representable step outside', () => {
    for (const t of [distances, shipped]) {
      for (const level of MATCHING_LEVELS) {
        const threshold = t.threshold(level);
        expect(t.level(threshold)).toBeGreaterThanOrEqual(level);
        expect(t.level(threshold + 1e-9)).toBeLessThan(level);
      }
    }
    for (const level of MATCHING_LEVELS) {
      expect(similarities.level(similarities.threshold(level))).toBe(level);
      expect(similarities.level(similarities.threshold(level) - 1e-9)).toBe(level - 1);
    }
  });

  it('never gives a more alike score a lower level (any pair of scores)', () => {
    fc.assert(
      fc.property(fc.double({ min: -1, max: 2, noNaN: true }), fc.double({ min: -1, max: 2, noNaN: true }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(distances.level(low)).toBeGreaterThanOrEqual(distances.level(high));
        expect(shipped.level(low)).toBeGreaterThanOrEqual(shipped.level(high));
        expect(similarities.level(high)).toBeGreaterThanOrEqual(similarities.level(low));
      }),
    );
  });

  it('the shipped table validates the levels its data can bound (1-4 here) and no level beyond', () => {
    const validated = MATCHING_LEVELS.filter((level) => shipped.isValidated(level));
    expect(validated).toEqual(shipped.calibration.validatedLevels);
    expect(Math.max(...validated)).toBeLessThanOrEqual(4); // ~4,000 impostor pairs cannot show FAR below ~7e-4
  });
});
