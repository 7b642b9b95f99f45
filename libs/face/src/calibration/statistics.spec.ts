import { chooseThresholds, binomialUpperBound, normalCdf, normalQuantile, percentile } from '@identity-broker/face/calibration';
import { MATCHING_LEVELS } from '@identity-broker/face';

describe('calibration statistics', () => {
  it('bounds a zero-event rate by about 3/n (rule of three)', () => {
    expect(binomialUpperBound(0, 3000)).toBeCloseTo(1 - 0.05 ** (1 / 3000), 10);
    expect(binomialUpperBound(0, 3000) * 3000).toBeCloseTo(3, 1);
  });

  it('matches known Clopper-Pearson bounds', () => {
    // One-sided 95% upper bound for 1 event in 100 trials is 0.0466.
    expect(binomialUpperBound(1, 100)).toBeCloseTo(0.0466, 3);
  });

  it('inverts the normal CDF, deep tails included', () => {
    for (const p of [1e-7, 1e-4, 0.01, 0.3, 0.5, 0.9, 0.999]) expect(normalCdf(normalQuantile(p)) / p).toBeCloseTo(1, 4);
    expect(normalQuantile(0.975)).toBeCloseTo(1.96, 2);
  });

  it('interpolates percentiles', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
  });

  it('chooses thresholds that get stricter with the level and marks unvalidatable levels', () => {
    const genuine = Array.from({ length: 200 }, (_, i) => 0.3 + (i / 200) * 0.2);
    const impostor = Array.from({ length: 5000 }, (_, i) => 0.9 + normalQuantile((i + 0.5) / 5000) * 0.08);
    const choice = chooseThresholds(genuine, impostor, 'euclidean-distance');
    for (const level of MATCHING_LEVELS.slice(1)) {
      expect(choice.levels[level].threshold).toBeLessThanOrEqual(choice.levels[(level - 1) as 1].threshold);
    }
    // 5000 impostor pairs bound FAR at best to ~6e-4: levels 1-4 can be validated, 5-9 cannot.
    expect(choice.validatedLevels).toEqual([1, 2, 3, 4]);
    expect(choice.levels[9].method).toBe('extrapolated');
  });
});
