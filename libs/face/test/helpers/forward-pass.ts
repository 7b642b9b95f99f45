import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeImage, type RgbImage } from '@identity-broker/face';

/** A tfjs tensor as the forward-pass specs read it (face-api's typings list a subset of tfjs; load-face-api.ts). */
export interface Tensor {
  dataSync(): Float32Array;
  dispose(): void;
}

/** The tfjs calls the forward-pass specs make. */
export interface Tf {
  tensor3d(values: Float32Array, shape: number[], dtype: 'float32'): Tensor;
  memory(): { numTensors: number; numBytes: number };
  profile(f: () => void): Promise<{ peakBytes: number }>;
}

/** A labelled test face, decoded. */
export const testFace = (name: string) =>
  decodeImage(new Uint8Array(readFileSync(join(import.meta.dirname, '../../../../test/fixtures/verifier-faces', name))));

/** Noise: every weight of a network matters, and most of its outputs get some score. */
export function noise(width: number, height: number, seed: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  let s = seed;
  for (let i = 0; i < data.length; i++) data[i] = (s = (s * 1103515245 + 12345) % 2 ** 31) >> 23;
  return { width, height, data };
}
