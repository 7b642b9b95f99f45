import { FaceError } from '../errors.js';

/**
 * Largest image decoded at all, by its declared size. 16 MP takes every current phone frame (12 MP is
 * 4000x3000, 4608x3456 is 16 MP) while a decoded frame stays under 64 MB of RGBA; anything larger is
 * refused from its header, before a byte is decompressed (a few hundred KB of PNG can declare 36 MP).
 */
export const MAX_IMAGE_PIXELS = 16_000_000;
/** Longest side accepted: refuses 1 x 16,000,000 strips that pass the pixel count but no camera makes. */
export const MAX_IMAGE_SIDE = 8192;
/**
 * Longest side the face engine works on; larger images are scaled down (area average) before any tensor
 * is built. SSD MobileNet sees 512x512 anyway and the descriptor a 150x150 face crop: at 1024 a face
 * spanning a seventh of the frame still gives the descriptor its full 150 pixels, and the padded copies
 * the engine makes for tight crops (up to 3x each side) stay under 30 MB of pixels.
 */
export const MAX_ANALYSIS_SIDE = 1024;

/** Refuses an image by its declared dimensions (FaceError TOO_LARGE, or BAD_IMAGE for a zero size). */
export function assertDecodableSize(format: string, width: number, height: number): void {
  if (!(width >= 1 && height >= 1)) throw new FaceError('BAD_IMAGE', `${format} image declares no pixels (${width}x${height})`);
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    throw new FaceError(
      'TOO_LARGE',
      `${format} image of ${width}x${height} pixels is too large (at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels, ${MAX_IMAGE_SIDE} pixels a side)`,
    );
  }
}
