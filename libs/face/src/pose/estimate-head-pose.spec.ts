import { estimateHeadPose, HEAD_MODEL_POINTS } from './estimate-head-pose.js';
import type { Point } from '@identity-broker/face';

const RAD = Math.PI / 180;

/** Projects the generic head rotated by yaw/pitch/roll (same conventions as estimateHeadPose) into 68 image landmarks. */
function landmarksFor(yaw: number, pitch: number, roll: number): Point[] {
  const [a, b, g] = [-pitch * RAD, yaw * RAD, roll * RAD];
  const rx = [
    [1, 0, 0],
    [0, Math.cos(a), -Math.sin(a)],
    [0, Math.sin(a), Math.cos(a)],
  ];
  const ry = [
    [Math.cos(b), 0, Math.sin(b)],
    [0, 1, 0],
    [-Math.sin(b), 0, Math.cos(b)],
  ];
  const rz = [
    [Math.cos(g), -Math.sin(g), 0],
    [Math.sin(g), Math.cos(g), 0],
    [0, 0, 1],
  ];
  const mul = (m: number[][], n: number[][]) => m.map((row) => [0, 1, 2].map((j) => row.reduce((s, v, k) => s + v * n[k][j], 0)));
  const r = mul(rz, mul(ry, rx));
  const points: Point[] = Array.from({ length: 68 }, () => ({ x: 0, y: 0 }));
  for (const { index, xyz } of HEAD_MODEL_POINTS) {
    const [x, y] = r.map((row) => row[0] * xyz[0] + row[1] * xyz[1] + row[2] * xyz[2]);
    points[index] = { x: 320 + 0.3 * x, y: 240 - 0.3 * y }; // image y grows downwards
  }
  return points;
}

describe('estimateHeadPose', () => {
  it.each([
    [0, 0, 0],
    [30, 0, 0],
    [-30, 0, 0],
    [0, 20, 0],
    [0, -20, 0],
    [0, 0, 15],
    [25, -10, 8],
  ])('recovers yaw %d, pitch %d, roll %d from projected landmarks', (yaw, pitch, roll) => {
    const pose = estimateHeadPose(landmarksFor(yaw, pitch, roll));
    expect(pose.yaw).toBeCloseTo(yaw, 0);
    expect(pose.pitch).toBeCloseTo(pitch, 0);
    expect(pose.roll).toBeCloseTo(roll, 0);
  });

  it('positive yaw moves the nose tip towards the image right (subject turned to their left)', () => {
    const landmarks = landmarksFor(30, 0, 0);
    const eyeMidX = (landmarks[36].x + landmarks[45].x) / 2;
    expect(landmarks[30].x).toBeGreaterThan(eyeMidX);
    expect(estimateHeadPose(landmarks).yaw).toBeGreaterThan(0);
  });

  it('rejects landmark sets that are not 68 points', () => {
    expect(() => estimateHeadPose([{ x: 0, y: 0 }])).toThrow(RangeError);
  });
});
