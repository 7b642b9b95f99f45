import { DIRECTIONS, judgeBurst, judgeLiveness, progress, randomDirections } from './liveness-rules.js';

const pose = (yaw: number, roll = 0, pitch = -12) => ({ yaw, pitch, roll });
const centre = pose(-2, 3);

describe('liveness rules: bursts', () => {
  it('reads directions with the engine conventions (yaw > 0 = own left; roll > 0 = towards the right shoulder, from the centre roll)', () => {
    expect(progress('left', pose(20), centre)).toBe(20);
    expect(progress('right', pose(-20), centre)).toBe(20);
    expect(progress('tilt_right', pose(0, 23), centre)).toBe(20);
    expect(progress('tilt_left', pose(0, -17), centre)).toBe(20);
  });

  it('passes a burst that moves towards the asked pose and reaches it', () => {
    expect(judgeBurst('left', [pose(1), pose(8), pose(15)], centre)).toBeUndefined();
    expect(judgeBurst('right', [pose(-10), pose(-36)], centre)).toBeUndefined();
    expect(judgeBurst('tilt_right', [pose(0, 13), pose(0, 24)], centre)).toBeUndefined();
    // Pose estimates jitter: a frame 2° back still counts as progress.
    expect(judgeBurst('left', [pose(2), pose(10), pose(8.5), pose(14)], centre)).toBeUndefined();
  });

  it('refuses a head that does not move, moves the wrong way, stops short, or a burst of the wrong size', () => {
    expect(judgeBurst('left', [pose(20), pose(20)], centre)).toMatch(/does not move towards left/);
    expect(judgeBurst('left', [pose(0), pose(15), pose(5), pose(16)], centre)).toMatch(/frame 3 moves away/);
    expect(judgeBurst('right', [pose(-2), pose(-10)], centre)).toMatch(/does not reach right/);
    expect(judgeBurst('right', [pose(20), pose(-20)].reverse(), centre)).toMatch(/moves away/);
    expect(judgeBurst('tilt_left', [pose(0, 3), pose(0, 10)], centre)).toMatch(/moves away/);
    expect(judgeBurst('left', [pose(15)], centre)).toBe('1 frames, expected 2-4');
    expect(
      judgeBurst(
        'left',
        [1, 2, 3, 4, 15].map((y) => pose(y)),
        centre,
      ),
    ).toBe('5 frames, expected 2-4');
  });
});

describe('liveness rules: the whole answer', () => {
  const good = {
    directions: ['left', 'tilt_right'] as const,
    centre,
    bursts: [
      [pose(3), pose(16)],
      [pose(0, 12), pose(0, 25)],
    ],
    otherFaces: [],
    stills: [],
  };

  it('passes every burst in order with one face and no still picture', () => {
    expect(judgeLiveness({ ...good, directions: [...good.directions] })).toEqual({ passed: true, problems: [] });
  });

  it('fails bursts in the wrong order, a centre frame turned away, another face, a still picture, a missing burst', () => {
    const swapped = judgeLiveness({ ...good, directions: ['tilt_right', 'left'] });
    expect(swapped.passed).toBe(false);
    expect(swapped.problems).toHaveLength(2);
    expect(judgeLiveness({ ...good, directions: [...good.directions], centre: pose(25, 3) }).problems[0]).toMatch(/centre frame/);
    expect(judgeLiveness({ ...good, directions: [...good.directions], otherFaces: ['frame 1 and frame 4'] }).problems).toEqual([
      'another face: frame 1 and frame 4',
    ]);
    expect(judgeLiveness({ ...good, directions: [...good.directions], stills: ['frame 3 repeats frame 2'] }).passed).toBe(false);
    expect(judgeLiveness({ ...good, directions: [...good.directions], bursts: [good.bursts[0]] }).problems[0]).toBe('expected 2 bursts, got 1');
  });
});

describe('liveness rules: the challenge', () => {
  it('draws four directions, never the same twice in a row, covering the 108 sequences', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1500; i++) {
      const s = randomDirections();
      expect(s).toHaveLength(4);
      if (s.some((d, j) => j > 0 && d === s[j - 1])) throw new Error(`repeat in ${s.join()}`);
      if (s.some((d) => !DIRECTIONS.includes(d))) throw new Error(`unknown direction in ${s.join()}`);
      seen.add(s.join());
    }
    expect(seen.size).toBeGreaterThan(100);
  });

  it('uses the drawing function it is given (crypto.randomInt by default)', () => {
    expect(randomDirections(4, () => 0)).toEqual(['left', 'right', 'left', 'right']);
  });
});
