import type { HeadPose, Point } from '../types.js';

/**
 * Generic 3D head (arbitrary units; x to the image right, y up, z towards the camera) for six
 * points of the 68-point iBUG layout. Widely used approximation of an average adult face.
 */
const MODEL_POINTS: ReadonlyArray<{ index: number; xyz: [number, number, number] }> = [
  { index: 30, xyz: [0, 0, 0] }, // nose tip
  { index: 8, xyz: [0, -330, -65] }, // chin
  { index: 36, xyz: [-225, 170, -135] }, // outer corner of the eye on the image left
  { index: 45, xyz: [225, 170, -135] }, // outer corner of the eye on the image right
  { index: 48, xyz: [-150, -150, -125] }, // mouth corner on the image left
  { index: 54, xyz: [150, -150, -125] }, // mouth corner on the image right
];

const DEGREES = 180 / Math.PI;

/**
 * Estimates head rotation from 68 landmarks by fitting the generic head under weak perspective
 * (scaled orthographic projection), which is accurate enough for challenge checks ("turn left")
 * at selfie distances, without camera intrinsics. Expect several degrees of error; it is not a
 * measurement instrument.
 *
 * Conventions (degrees, image as captured, NOT a mirrored preview):
 * - yaw > 0: the subject turned their head to THEIR left (nose moves towards the image right);
 *   a mirrored image flips the sign.
 * - pitch > 0: the subject looks up.
 * - roll > 0: the head is tilted counter-clockwise as seen in the image.
 */
export function estimateHeadPose(landmarks: readonly Point[]): HeadPose {
  if (landmarks.length !== 68) throw new RangeError(`expected 68 landmarks, got ${landmarks.length}`);
  const model = MODEL_POINTS.map((p) => p.xyz);
  // Image y grows downwards; flip it so both point sets are right-handed with y up.
  const image = MODEL_POINTS.map((p) => [landmarks[p.index].x, -landmarks[p.index].y]);
  const modelCentred = centre(model);
  const imageCentred = centre(image);

  const projection = fitAffineProjection(modelCentred, imageCentred);
  const r1 = normalise(projection[0]);
  const r2 = normalise(subtract(projection[1], scale(r1, dot(projection[1], r1))));
  const r3 = cross(r1, r2);

  // Rotation R = Rz(roll) * Ry(yaw) * Rx(pitchDown); rows are r1, r2, r3.
  const yaw = Math.asin(clampUnit(-r3[0]));
  const pitchDown = Math.atan2(r3[1], r3[2]);
  const roll = Math.atan2(r2[0], r1[0]);
  return { yaw: yaw * DEGREES, pitch: -pitchDown * DEGREES, roll: roll * DEGREES };
}

/** Least-squares 2x3 matrix M with image ≈ M · model (both centred): M = B·Aᵀ·(A·Aᵀ)⁻¹. */
function fitAffineProjection(model: number[][], image: number[][]): [number[], number[]] {
  const aat = [0, 1, 2].map((i) => [0, 1, 2].map((j) => model.reduce((sum, p) => sum + p[i] * p[j], 0)));
  const inverse = invert3x3(aat);
  const rows = [0, 1].map((r) => {
    const bat = [0, 1, 2].map((j) => model.reduce((sum, p, k) => sum + image[k][r] * p[j], 0));
    return [0, 1, 2].map((j) => bat.reduce((sum, value, i) => sum + value * inverse[i][j], 0));
  });
  return [rows[0], rows[1]];
}

function centre(points: number[][]): number[][] {
  const mean = points[0].map((_, d) => points.reduce((sum, p) => sum + p[d], 0) / points.length);
  return points.map((p) => p.map((value, d) => value - mean[d]));
}

function invert3x3(m: number[][]): number[][] {
  const [[a, b, c], [d, e, f], [g, h, i]] = m;
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  return [
    [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
    [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
    [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
  ];
}

const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const scale = (a: number[], k: number) => a.map((v) => v * k);
const subtract = (a: number[], b: number[]) => a.map((v, i) => v - b[i]);
const normalise = (a: number[]) => scale(a, 1 / Math.hypot(a[0], a[1], a[2]));
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const clampUnit = (v: number) => Math.max(-1, Math.min(1, v));

/** Exposed for tests and tools that synthesise landmarks: the model points used above. */
export const HEAD_MODEL_POINTS = MODEL_POINTS;
