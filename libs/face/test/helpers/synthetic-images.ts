import type { RgbImage } from '@identity-broker/face';

/** Smooth colour gradient: easy to check after lossy round trips. */
export function gradientImage(width: number, height: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = Math.round((x / (width - 1)) * 255);
      data[i + 1] = Math.round((y / (height - 1)) * 255);
      data[i + 2] = 128;
    }
  }
  return { width, height, data };
}

export function uniformImage(width: number, height: number, value: number): RgbImage {
  return { width, height, data: new Uint8Array(width * height * 3).fill(value) };
}

export function maxAbsDifference(a: RgbImage, b: RgbImage): number {
  let max = 0;
  for (let i = 0; i < a.data.length; i++) max = Math.max(max, Math.abs(a.data[i] - b.data[i]));
  return max;
}
