import type { RgbImage } from '../types.js';

export interface ScaledImage {
  image: RgbImage;
  /** Source pixels per output pixel, across and down (1 when the image already fits). */
  scaleX: number;
  scaleY: number;
}

/**
 * Scales the image down so that its longest side is at most `maxSide`, averaging each output pixel over the
 * source pixels it covers (an area filter: no aliasing, unlike nearest-neighbour sampling). Images that
 * already fit, such as chip photos, are returned unchanged so they keep all their detail.
 */
export function downscaleToFit(source: RgbImage, maxSide: number): ScaledImage {
  const longest = Math.max(source.width, source.height);
  if (longest <= maxSide) return { image: source, scaleX: 1, scaleY: 1 };
  const factor = longest / maxSide;
  const width = Math.max(1, Math.round(source.width / factor));
  const height = Math.max(1, Math.round(source.height / factor));
  const data = new Uint8Array(width * height * 3);
  const sums = new Float64Array(width * 3);
  const counts = new Uint32Array(width);
  const columnOf = new Uint32Array(source.width);
  for (let x = 0; x < source.width; x++) columnOf[x] = Math.min(width - 1, Math.floor((x * width) / source.width));
  let sy = 0;
  for (let y = 0; y < height; y++) {
    const rowEnd = y === height - 1 ? source.height : Math.floor(((y + 1) * source.height) / height);
    sums.fill(0);
    counts.fill(0);
    for (; sy < rowEnd; sy++) {
      let from = sy * source.width * 3;
      for (let x = 0; x < source.width; x++, from += 3) {
        const column = columnOf[x];
        sums[column * 3] += source.data[from];
        sums[column * 3 + 1] += source.data[from + 1];
        sums[column * 3 + 2] += source.data[from + 2];
        counts[column]++;
      }
    }
    for (let x = 0; x < width; x++) {
      const n = counts[x] || 1;
      const to = (y * width + x) * 3;
      data[to] = Math.round(sums[x * 3] / n);
      data[to + 1] = Math.round(sums[x * 3 + 1] / n);
      data[to + 2] = Math.round(sums[x * 3 + 2] / n);
    }
  }
  return { image: { width, height, data }, scaleX: source.width / width, scaleY: source.height / height };
}
