import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { detectImageFormat, readImageHeader } from '@identity-broker/face';

export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** A logo between these sizes (pixels, each side) is drawn sharp in the page's 12rem × 3rem box and costs little to decode. */
export const LOGO_MIN_SIDE = 16;
export const LOGO_MAX_SIDE = 2048;

export interface LogoImage {
  type: LogoType;
  width: number;
  height: number;
}

/**
 * What a logo's bytes are, told by their magic bytes only (a server's Content-Type is not trusted): PNG,
 * JPEG or WebP, with sane dimensions; anything else (SVG above all, which can carry scripts) is refused.
 * PNG and JPEG are decoded in full once the dimensions are known to be small, so a file that only starts
 * like an image is refused; WebP is checked by its header (no decoder among our libraries). Throws an Error
 * whose message says why, for the admin.
 */
export function inspectLogo(bytes: Buffer): LogoImage {
  const image = isWebp(bytes) ? webpSize(bytes) : headerSize(bytes);
  if (!image) throw new Error('is not a PNG, JPEG or WebP image (SVG is refused: it can carry scripts)');
  const { width, height } = image;
  if (width < LOGO_MIN_SIDE || height < LOGO_MIN_SIDE || width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE)
    throw new Error(`is ${width}×${height} pixels; each side must be ${LOGO_MIN_SIDE} to ${LOGO_MAX_SIDE}`);
  try {
    if (image.type === 'image/png') PNG.sync.read(bytes);
    if (image.type === 'image/jpeg') jpeg.decode(bytes, { maxResolutionInMP: (LOGO_MAX_SIDE * LOGO_MAX_SIDE) / 1e6, maxMemoryUsageInMB: 64 });
  } catch {
    throw new Error(`is not a valid ${image.type.slice(6).toUpperCase()} image (it could not be decoded)`);
  }
  return image;
}

const isWebp = (b: Buffer) => b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP';

/**
 * PNG and JPEG by the image header reader the face step uses (PNG IHDR, JPEG segments up to the first scan):
 * one reader of image headers in the service. A header it cannot read is refused with its reason.
 */
function headerSize(bytes: Buffer): LogoImage | undefined {
  const format = detectImageFormat(bytes);
  if (format !== 'png' && format !== 'jpeg') return undefined;
  try {
    const { width, height } = readImageHeader(bytes);
    return { type: `image/${format}`, width, height };
  } catch (e) {
    throw new Error(`is not a valid ${format.toUpperCase()} image (${(e as Error).message})`);
  }
}

/** The first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X, canvas size). */
function webpSize(b: Buffer): LogoImage | undefined {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)
    return { type: 'image/webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L' && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return { type: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { type: 'image/webp', width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return undefined;
}
