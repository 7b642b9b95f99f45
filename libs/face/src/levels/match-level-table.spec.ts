import { MatchLevelTable, loadMatchLevelTable } from '@identity-broker/face';

const table = (thresholds: Record<number, number>, metric: 'euclidean-distance' | 'cosine-similarity' = 'euclidean-distance') =>
  new MatchLevelTable({ engine: 'test', metric, thresholds, validatedLevels: [1, 2] } as never);

const DISTANCES = { 1: 0.9, 2: 0.8, 3: 0.7, 4: 0.6, 5: 0.5, 6: 0.4, 7: 0.3, 8: 0.2, 9: 0.1 };

describe('match level table (spec 2.2)', () => {
  it('maps a distance to the highest level whose threshold it meets, inclusive', () => {
    const t = table(DISTANCES);
    expect(t.level(0.95)).toBe(0);
    expect(t.level(0.9)).toBe(1);
    expect(t.level(0.35)).toBe(6);
    expect(t.level(0.1)).toBe(9);
    expect(t.level(0)).toBe(9);
    expect(t.level(Number.NaN)).toBe(0);
  });

  it('reads similarities the other way round', () => {
    const t = table({ 1: 0.1, 2: 0.2, 3: 0.3, 4: 0.4, 5: 0.5, 6: 0.6, 7: 0.7, 8: 0.8, 9: 0.9 }, 'cosine-similarity');
    expect(t.level(0.75)).toBe(7);
    expect(t.level(0.05)).toBe(0);
  });

  it('refuses a table where a stricter level accepts what a laxer one rejects, or a level is missing', () => {
    expect(() => table({ ...DISTANCES, 7: 0.45 })).toThrow('laxer');
    const { 9: _dropped, ...eight } = DISTANCES;
    expect(() => table(eight)).toThrow('level 9');
  });

  it('is monotonic for the shipped face-api calibration, and says which levels the data validates', () => {
    const shipped = loadMatchLevelTable('face-api-resnet128');
    let previous = 0;
    for (let d = 1.2; d >= 0; d -= 0.005) {
      const level = shipped.level(d);
      expect(level).toBeGreaterThanOrEqual(previous);
      previous = level;
    }
    expect(shipped.isValidated(1)).toBe(true);
    expect(shipped.isValidated(9)).toBe(false);
    expect(() => loadMatchLevelTable('no-such-engine')).toThrow('calibrate:faces');
  });
});
