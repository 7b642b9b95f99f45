import type { RgbImage } from '../types.js';

/** Mirror image (left-right), as a front camera preview shows it. */
export function flipHorizontal(source: RgbImage): RgbImage {
  const { width, height } = source;
  const data = new Uint8Array(source.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * 3;
      const to = (y * width + (width - 1 - x)) * 3;
      data[to] = source.data[from];
      data[to + 1] = source.data[from + 1];
      data[to + 2] = source.data[from + 2];
    }
  }
  return { width, height, data };
}
