import { judgeLiveness, poseMatches, randomSequence } from '../../src/verifier/verification/liveness-rules.js';

const same = (score: number) => score <= 0.5;

describe('liveness rules', () => {
  it('matches poses by yaw with the engine convention (positive = turned to the subject’s left)', () => {
    expect(poseMatches('left', 20)).toBe(true);
    expect(poseMatches('left', -20)).toBe(false);
    expect(poseMatches('right', -20)).toBe(true);
    expect(poseMatches('center', 3)).toBe(true);
    expect(poseMatches('center', 15)).toBe(false);
    expect(poseMatches('left', 5)).toBe(false);
  });

  it('passes frames that answer the challenge in order with one face', () => {
    const verdict = judgeLiveness(['right', 'center', 'left'], [
      { pose: 'right', yaw: -25, sameFaceScore: 0 },
      { pose: 'center', yaw: 2, sameFaceScore: 0.3 },
      { pose: 'left', yaw: 22, sameFaceScore: 0.35 },
    ], same);
    expect(verdict).toEqual({ passed: true, problems: [] });
  });

  it('fails frames in the wrong order, a head that did not turn, another face, or a missing frame', () => {
    expect(judgeLiveness(['left', 'right'], [{ pose: 'right', yaw: -20, sameFaceScore: 0 }, { pose: 'left', yaw: 20, sameFaceScore: 0.2 }], same).passed).toBe(false);
    const still = judgeLiveness(['left', 'center'], [{ pose: 'left', yaw: 1, sameFaceScore: 0 }, { pose: 'center', yaw: 1, sameFaceScore: 0.1 }], same);
    expect(still.passed).toBe(false);
    expect(still.problems[0]).toContain('turned left');
    const swapped = judgeLiveness(['left', 'center'], [{ pose: 'left', yaw: 20, sameFaceScore: 0 }, { pose: 'center', yaw: 0, sameFaceScore: 0.9 }], same);
    expect(swapped.problems).toEqual(['frame 2 shows another face than frame 1']);
    expect(judgeLiveness(['left', 'center', 'right'], [{ pose: 'left', yaw: 20, sameFaceScore: 0 }], same).problems[0]).toBe('expected 3 frames, got 1');
  });

  it('draws a permutation of left, center and right', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const s = randomSequence();
      expect([...s].sort()).toEqual(['center', 'left', 'right']);
      seen.add(s.join());
    }
    expect(seen.size).toBe(6);
  });
});
