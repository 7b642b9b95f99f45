import type { Box, HeadPose, RgbImage } from '../types.js';

/**
 * Capture quality of one face, measured before any matching (ISO/IEC 29794-5 style, kept simple): a frame that
 * is too blurred, too dark or bright, too small or turned away is asked again rather than matched, because a
 * bad capture would otherwise count as a false rejection of a genuine user (ISO/IEC 19795-1 separates the two:
 * failure to acquire vs false non-match). Framework-free; the caller decides what to do with the code.
 */
export type FaceQualityCode =
  'FACE_TOO_BLURRED' | 'FACE_TOO_DARK' | 'FACE_TOO_BRIGHT' | 'FACE_TOO_SMALL' | 'FACE_OFF_POSE' | 'MULTIPLE_FACES' | 'FACE_NOT_FOUND';

export interface FaceQualityMetrics {
  /** Variance of the 4-neighbour Laplacian of the grey face crop resampled to CROP_SIDE² (sharpness; higher is sharper). */
  sharpness: number;
  /** Mean luminance (ITU-R BT.601, 0-255) of the face crop. */
  luminance: number;
  /** Shorter side of the face box in source pixels. */
  faceSize: number;
}

export interface FaceQualityThresholds {
  minSharpness: number;
  minLuminance: number;
  maxLuminance: number;
  minFaceSize: number;
  /** Largest |yaw| and |roll| for a frame meant to face the camera. */
  maxCentreYaw: number;
  maxCentreRoll: number;
}

/**
 * Calibrated with libs/face/test/print-face-quality.ts on every image of test/fixtures/verifier-faces and
 * /work/shared/testdata/faces with a detectable face (107 faces, frames scaled as the engine scales them):
 *   sharpness  min 100.4  p5 218.9  median 682.9  p95 1698.7  max 2645.2
 *   luminance  min 79.1   p5 96.7   median 145.7  p95 176.9   max 184.7
 *   face size  min 99.1   p5 117.1  median 169.8  p95 362.9   max 474.9 (px, shorter side of the box)
 * Each limit sits at about half (or beyond) the worst usable fixture, so none is refused, while a blur of sigma
 * 5 px on a 260 px face (sharpness 11), the fixture selfie darkened to a quarter (luminance 40), or a face
 * under 64 px is. The minimum face size follows the descriptor: face-api embeds a 150x150 crop, and a face under
 * half of that is upsampled mush.
 */
export const DEFAULT_QUALITY_THRESHOLDS: FaceQualityThresholds = {
  minSharpness: 50,
  minLuminance: 45,
  maxLuminance: 220,
  minFaceSize: 64,
  maxCentreYaw: 10,
  maxCentreRoll: 20,
};

const CROP_SIDE = 112;

export function measureFaceQuality(image: RgbImage, box: Box): FaceQualityMetrics {
  const crop = greyCrop(image, box, CROP_SIDE);
  let sum = 0;
  for (const v of crop) sum += v;
  const luminance = sum / crop.length;
  let lapSum = 0;
  let lapSq = 0;
  let n = 0;
  for (let y = 1; y < CROP_SIDE - 1; y++) {
    for (let x = 1; x < CROP_SIDE - 1; x++) {
      const i = y * CROP_SIDE + x;
      const lap = crop[i - 1] + crop[i + 1] + crop[i - CROP_SIDE] + crop[i + CROP_SIDE] - 4 * crop[i];
      lapSum += lap;
      lapSq += lap * lap;
      n++;
    }
  }
  const mean = lapSum / n;
  return { sharpness: lapSq / n - mean * mean, luminance, faceSize: Math.min(box.width, box.height) };
}

/** The first quality problem of a face, or undefined when it is usable; `pose` is checked only for a centre frame. */
export function judgeFaceQuality(
  metrics: FaceQualityMetrics,
  pose: HeadPose | undefined,
  t: FaceQualityThresholds = DEFAULT_QUALITY_THRESHOLDS,
): FaceQualityCode | undefined {
  if (metrics.faceSize < t.minFaceSize) return 'FACE_TOO_SMALL';
  if (metrics.luminance < t.minLuminance) return 'FACE_TOO_DARK';
  if (metrics.luminance > t.maxLuminance) return 'FACE_TOO_BRIGHT';
  if (metrics.sharpness < t.minSharpness) return 'FACE_TOO_BLURRED';
  if (pose && (Math.abs(pose.yaw) > t.maxCentreYaw || Math.abs(pose.roll) > t.maxCentreRoll)) return 'FACE_OFF_POSE';
  return undefined;
}

/** Grey (BT.601) crop of `box`, clamped to the image, resampled to side x side by area averaging. */
export function greyCrop(image: RgbImage, box: Box, side: number): Float64Array {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(image.width, Math.max(x0 + 1, Math.ceil(box.x + box.width)));
  const y1 = Math.min(image.height, Math.max(y0 + 1, Math.ceil(box.y + box.height)));
  const out = new Float64Array(side * side);
  const counts = new Uint32Array(side * side);
  const w = x1 - x0;
  const h = y1 - y0;
  for (let y = y0; y < y1; y++) {
    const oy = Math.min(side - 1, Math.floor(((y - y0) * side) / h));
    for (let x = x0; x < x1; x++) {
      const ox = Math.min(side - 1, Math.floor(((x - x0) * side) / w));
      const p = (y * image.width + x) * 3;
      out[oy * side + ox] += 0.299 * image.data[p] + 0.587 * image.data[p + 1] + 0.114 * image.data[p + 2];
      counts[oy * side + ox]++;
    }
  }
  // A crop smaller than side x side leaves cells empty: fill them from the nearest filled cell on the left/up.
  for (let i = 0; i < out.length; i++) {
    if (counts[i]) out[i] /= counts[i];
    else out[i] = i % side > 0 ? out[i - 1] : i >= side ? out[i - side] : 0;
  }
  return out;
}
