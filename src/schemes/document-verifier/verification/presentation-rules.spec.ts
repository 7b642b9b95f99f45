import { activeMargin, frameScore, judgePresentation, PRESENTATION_RULES, sessionScore } from './presentation-rules.js';

const pose = (yaw: number, roll = 0, pitch = -12) => ({ yaw, pitch, roll });
const centre = pose(-2, 3);
/** `n` frames that each score `score` (antispoof = liveness = score). */
const frames = (n: number, score: number) => Array.from({ length: n }, () => ({ presentation: { antispoof: score, liveness: score } }));
const { refuseBelow, doubtBelow, strongActiveMargin } = PRESENTATION_RULES;

describe('presentation rules: passive scores combined with the active challenge', () => {
  it('scores a frame as the mean of the two models and a session as the median of its frames', () => {
    expect(frameScore({ antispoof: 0.4, liveness: 1 })).toBeCloseTo(0.7, 10);
    expect(sessionScore([])).toBeUndefined();
    const scores = [0.1, 0.8, 0.9, 0.85, 0.2].map((s) => ({ antispoof: s, liveness: s }));
    expect(sessionScore(scores)).toBe(0.8); // two bad frames of five change nothing
    expect(sessionScore(scores.slice(0, 4))).toBeCloseTo(0.825, 10);
  });

  it('measures the active evidence as the weakest burst’s margin past its target', () => {
    // left needs yaw 12, tilt_right needs roll 15 from the centre's 3.
    expect(
      activeMargin(['left', 'tilt_right'], centre, [
        [pose(5), pose(30)],
        [pose(0, 10), pose(0, 22)],
      ]),
    ).toBe(4);
    expect(activeMargin(['right'], centre, [[pose(-5), pose(-10)]])).toBe(-2);
    expect(activeMargin(['left'], centre, [[]])).toBe(-Infinity);
  });

  it('passes genuine-looking sessions whatever the active margin, and an engine that does not score', () => {
    expect(judgePresentation(frames(9, 0.83), 0)).toMatchObject({ passed: true, problems: [] });
    expect(judgePresentation(frames(9, doubtBelow), undefined).passed).toBe(true);
    expect(judgePresentation([{}, {}], 0)).toEqual({ passed: true, problems: [], record: { frames: [], activeMargin: 0 } });
  });

  it('refuses a session whose frame facing the camera scores below refuseBelow, however well its other frames score', () => {
    const replay = [...frames(1, 0.44), ...frames(8, 0.83)];
    const verdict = judgePresentation(replay, 30);
    expect(verdict.passed).toBe(false);
    expect(verdict.problems).toEqual([`passive presentation score 0.44 of the frame facing the camera, below ${refuseBelow}`]);
    expect(verdict.record).toMatchObject({ score: 0.83, centreScore: 0.44 });
    // A low burst frame is one frame among many: the median decides for it.
    expect(judgePresentation([...frames(1, 0.83), ...frames(1, 0.44), ...frames(7, 0.83)], 0).passed).toBe(true);
    // The centre frame at exactly the threshold passes; without a score of its own it is skipped.
    expect(judgePresentation([...frames(1, refuseBelow), ...frames(8, 0.83)], 0).passed).toBe(true);
    expect(judgePresentation([{}, ...frames(8, 0.83)], 0).passed).toBe(true);
  });

  it('refuses a session below refuseBelow even with a strong active answer', () => {
    const verdict = judgePresentation([...frames(1, 0.83), ...frames(8, refuseBelow - 0.01)], 30);
    expect(verdict.passed).toBe(false);
    expect(verdict.problems).toEqual([`passive presentation score ${(refuseBelow - 0.01).toFixed(2)} over 9 frames, below ${refuseBelow}`]);
  });

  it('refuses a doubtful session only when the active evidence is weak (or was not examined)', () => {
    const doubtful = (doubtBelow + refuseBelow) / 2;
    expect(judgePresentation(frames(9, doubtful), strongActiveMargin).passed).toBe(true);
    const weak = judgePresentation(frames(9, doubtful), strongActiveMargin - 0.5);
    expect(weak.passed).toBe(false);
    expect(weak.problems[0]).toMatch(/with weak active evidence \(the weakest movement only 7\.5° past its target\)/);
    expect(judgePresentation(frames(1, doubtful), undefined).problems[0]).toMatch(/over 1 frame, .*no head movement examined/);
  });

  it('records rounded numbers for support, never images', () => {
    const { record } = judgePresentation([{ presentation: { antispoof: 0.123456, liveness: 0.98765 } }], 4.56789);
    expect(record).toEqual({ score: 0.556, centreScore: 0.556, frames: [{ antispoof: 0.123, liveness: 0.988 }], activeMargin: 4.568 });
  });

  it('keeps the thresholds ordered and above a blind gate on one model', () => {
    expect(refuseBelow).toBeLessThan(doubtBelow);
    expect(refuseBelow).toBeGreaterThan(0.5);
  });
});
