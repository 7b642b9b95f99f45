import { PNG } from 'pngjs';
import type { RgbImage } from '../types.js';
import { MAX_IMAGE_PIXELS } from './decode-limits.js';

export function decodePng(bytes: Uint8Array): RgbImage {
  // pngjs expands palette, grey and 16-bit images to 8-bit RGBA; alpha is composited on white
  // because transparent ID photo backgrounds are meant to look like paper.
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (png.width * png.height > MAX_IMAGE_PIXELS) throw new RangeError(`PNG too large: ${png.width}x${png.height}`);
  const pixels = png.width * png.height;
  const rgb = new Uint8Array(pixels * 3);
  for (let i = 0; i < pixels; i++) {
    const alpha = png.data[i * 4 + 3] / 255;
    for (let c = 0; c < 3; c++) {
      rgb[i * 3 + c] = Math.round(png.data[i * 4 + c] * alpha + 255 * (1 - alpha));
    }
  }
  return { width: png.width, height: png.height, data: rgb };
}
