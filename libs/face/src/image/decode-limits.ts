/**
 * Upper bound on decoded pixels. A 40 MP cap covers phone cameras while refusing
 * decompression bombs (a tiny file that claims a huge canvas).
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
