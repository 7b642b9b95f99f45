import type { RgbImage } from '../types.js';

/**
 * A coarse picture of a whole frame (SIDE x SIDE grey, area averaged, normalised to zero mean and unit
 * variance) to spot still photos without a presentation-attack model: two camera frames of a moving head
 * always differ (sensor noise, motion, background parallax), while a photo sent twice, re-encoded, or
 * mirrored differs only by compression noise. Normalising makes a brightness change no escape.
 */
const SIDE = 24;

export type FrameSignature = Float64Array;

export function frameSignature(image: RgbImage): FrameSignature {
  const out = new Float64Array(SIDE * SIDE);
  const counts = new Uint32Array(SIDE * SIDE);
  for (let y = 0; y < image.height; y++) {
    const oy = Math.min(SIDE - 1, Math.floor((y * SIDE) / image.height));
    for (let x = 0; x < image.width; x++) {
      const ox = Math.min(SIDE - 1, Math.floor((x * SIDE) / image.width));
      const p = (y * image.width + x) * 3;
      out[oy * SIDE + ox] += 0.299 * image.data[p] + 0.587 * image.data[p + 1] + 0.114 * image.data[p + 2];
      counts[oy * SIDE + ox]++;
    }
  }
  let mean = 0;
  for (let i = 0; i < out.length; i++) mean += out[i] /= Math.max(1, counts[i]);
  mean /= out.length;
  let variance = 0;
  for (const v of out) variance += (v - mean) ** 2;
  const sd = Math.sqrt(variance / out.length) || 1;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] - mean) / sd;
  return out;
}

/** Root mean square difference of two signatures (0 = the same picture); `mirrorB` compares a with b flipped left-right. */
export function signatureDistance(a: FrameSignature, b: FrameSignature, mirrorB = false): number {
  let sum = 0;
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) {
      const d = a[y * SIDE + x] - b[y * SIDE + (mirrorB ? SIDE - 1 - x : x)];
      sum += d * d;
    }
  }
  return Math.sqrt(sum / (SIDE * SIDE));
}
