import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import type { RgbImage } from '../types.js';
import type { ImageHeader } from './read-image-header.js';

export function decodePng(bytes: Uint8Array, header: ImageHeader): RgbImage {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // pngjs bounds inflation by the declared size, except for interlaced images: those are inflated once here
  // with that bound, so a deflate bomb behind a small IHDR fails instead of expanding to gigabytes.
  if (header.interlaced) inflateSync(idatOf(buffer), { maxOutputLength: maxInterlacedSize(header) });
  // pngjs expands palette, grey and 16-bit images to 8-bit RGBA; alpha is composited on white
  // because transparent ID photo backgrounds are meant to look like paper.
  const png = PNG.sync.read(buffer);
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

/**
 * Filtered Adam7 data is at most 8 bytes a pixel (16-bit RGBA) plus one filter byte per row of each of
 * the 7 passes (PNG spec §8.2); a stream inflating past that is not the image it declares.
 */
function maxInterlacedSize(header: ImageHeader): number {
  return header.width * header.height * 8 + 7 * (header.height + 1) + 1024;
}

/** The concatenated IDAT chunk data (PNG spec §11.2.4); chunk CRCs are checked later by pngjs. */
function idatOf(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 8;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    if (type === 'IDAT') parts.push(png.subarray(offset + 8, offset + 8 + length));
    if (type === 'IEND') break;
    offset += 12 + length;
  }
  return Buffer.concat(parts);
}
