import type { RgbImage } from '../types.js';

export interface PaddedImage {
  image: RgbImage;
  /** Offset of the original image inside the padded one. */
  offsetX: number;
  offsetY: number;
}

/**
 * Surrounds the image with `fraction` of its width/height on every side, repeating the edge
 * pixels. Tight face crops (chip photos, 150x150 crops) leave detectors no context; padding
 * gives the face the proportions they were trained on. Edge repetition avoids a hard border
 * that a flat fill would draw next to the face.
 */
export function padImage(source: RgbImage, fraction: number): PaddedImage {
  const offsetX = Math.round(source.width * fraction);
  const offsetY = Math.round(source.height * fraction);
  const width = source.width + 2 * offsetX;
  const height = source.height + 2 * offsetY;
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const sy = clamp(y - offsetY, source.height - 1);
    for (let x = 0; x < width; x++) {
      const sx = clamp(x - offsetX, source.width - 1);
      const from = (sy * source.width + sx) * 3;
      const to = (y * width + x) * 3;
      data[to] = source.data[from];
      data[to + 1] = source.data[from + 1];
      data[to + 2] = source.data[from + 2];
    }
  }
  return { image: { width, height, data }, offsetX, offsetY };
}

/** `value` held within 0..max: the source pixel an edge-repeating pad reads (DetectorFrame reads the same way). */
export function clamp(value: number, max: number): number {
  return value < 0 ? 0 : value > max ? max : value;
}
