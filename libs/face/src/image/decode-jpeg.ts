import jpeg from 'jpeg-js';
import type { RgbImage } from '../types.js';
import { MAX_IMAGE_PIXELS } from './decode-limits.js';

export function decodeJpeg(bytes: Uint8Array): RgbImage {
  const decoded = jpeg.decode(bytes, {
    useTArray: true,
    formatAsRGBA: false,
    // The header was checked already; these bound jpeg-js itself should a file carry a second, larger frame.
    maxResolutionInMP: MAX_IMAGE_PIXELS / 1_000_000,
    maxMemoryUsageInMB: 512,
  });
  return { width: decoded.width, height: decoded.height, data: decoded.data };
}
