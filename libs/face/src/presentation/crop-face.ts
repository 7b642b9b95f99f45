import type { Box, FaceDetection, RgbImage } from '../types.js';

/**
 * The square the presentation models look at, as Human builds it: the face box enlarged 1.4 times about its centre
 * and made square on its longer side. Human's box is BlazeFace's (brows to chin, cheek to cheek); the nearest we
 * have is the bounding box of the 68 landmarks, which spans the same features.
 */
export const CROP_ENLARGE = 1.4;

export function presentationCropBox(detection: FaceDetection, enlarge = CROP_ENLARGE): Box {
  const xs = detection.landmarks.map((p) => p.x);
  const ys = detection.landmarks.map((p) => p.y);
  const [left, right, top, bottom] =
    xs.length > 0
      ? [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]
      : [detection.box.x, detection.box.x + detection.box.width, detection.box.y, detection.box.y + detection.box.height];
  const side = enlarge * Math.max(right - left, bottom - top);
  const cx = (left + right) / 2;
  const cy = (top + bottom) / 2;
  return { x: cx - side / 2, y: cy - side / 2, width: side, height: side };
}

/** Samples per output pixel and axis are capped here: enough to average away aliasing at the frame sizes the verifier sends (≤ 1024 px). */
const MAX_SUPERSAMPLING = 4;

/**
 * `box` resampled to size x size RGB floats in [0, 1] (NHWC, one image). Each output pixel averages a k x k grid of
 * bilinear samples over its footprint (k = source pixels per output pixel, at most 4), so a large face is not
 * aliased. Outside the image the crop is black, as tfjs's cropAndResize (Human's crop) fills it.
 */
export function cropFace(image: RgbImage, box: Box, size: number): Float32Array {
  const k = Math.min(MAX_SUPERSAMPLING, Math.max(1, Math.ceil(Math.max(box.width, box.height) / size)));
  const xs = samplePositions(box.x, box.width / size, size, k, image.width);
  const ys = samplePositions(box.y, box.height / size, size, k, image.height);
  const { width, data } = image;
  const out = new Float32Array(size * size * 3);
  const sum = new Float64Array(3);
  for (let oy = 0; oy < size; oy++) {
    for (let ox = 0; ox < size; ox++) {
      sum.fill(0);
      for (let sy = oy * k; sy < (oy + 1) * k; sy++) {
        if (ys.inside[sy] === 0) continue;
        const row0 = ys.lo[sy] * width;
        const row1 = ys.hi[sy] * width;
        const fy = ys.frac[sy];
        for (let sx = ox * k; sx < (ox + 1) * k; sx++) {
          if (xs.inside[sx] === 0) continue;
          const fx = xs.frac[sx];
          const a = (row0 + xs.lo[sx]) * 3;
          const b = (row0 + xs.hi[sx]) * 3;
          const c = (row1 + xs.lo[sx]) * 3;
          const d = (row1 + xs.hi[sx]) * 3;
          for (let ch = 0; ch < 3; ch++) {
            const top = data[a + ch] + (data[b + ch] - data[a + ch]) * fx;
            const bottom = data[c + ch] + (data[d + ch] - data[c + ch]) * fx;
            sum[ch] += top + (bottom - top) * fy;
          }
        }
      }
      const o = (oy * size + ox) * 3;
      for (let ch = 0; ch < 3; ch++) out[o + ch] = sum[ch] / (k * k * 255);
    }
  }
  return out;
}

/** Per sample along one axis: the two neighbouring source pixels, the weight of the second, and whether it lies in the image. */
function samplePositions(start: number, step: number, size: number, k: number, extent: number) {
  const n = size * k;
  const lo = new Int32Array(n);
  const hi = new Int32Array(n);
  const frac = new Float32Array(n);
  const inside = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const p = start + (i + 0.5) * (step / k) - 0.5; // pixel centres at integer coordinates
    if (p < -0.5 || p > extent - 0.5) continue;
    const clamped = Math.min(Math.max(p, 0), extent - 1);
    lo[i] = Math.floor(clamped);
    hi[i] = Math.min(lo[i] + 1, extent - 1);
    frac[i] = clamped - lo[i];
    inside[i] = 1;
  }
  return { lo, hi, frac, inside };
}
