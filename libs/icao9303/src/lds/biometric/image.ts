/**
 * Identifies face image encodings by their signatures (ISO/IEC 10918-1 JPEG SOI, ISO/IEC 15444-1 JP2 box /
 * J2K codestream) and reads the image dimensions from the image header itself.
 */
import { Icao9303Error } from '../../errors.js';

export type ImageType = 'JPEG' | 'JPEG2000';

export interface ImageHeaderInfo {
  type: ImageType;
  width?: number;
  height?: number;
}

const JP2_SIGNATURE = [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a];

const startsWith = (b: Uint8Array, sig: number[]) => sig.every((v, i) => b[i] === v);

export function sniffImage(b: Uint8Array, field = 'image'): ImageHeaderInfo {
  if (startsWith(b, [0xff, 0xd8, 0xff])) return { type: 'JPEG', ...jpegSize(b) };
  if (startsWith(b, JP2_SIGNATURE)) return { type: 'JPEG2000', ...jp2Size(b) };
  if (startsWith(b, [0xff, 0x4f, 0xff, 0x51])) return { type: 'JPEG2000', ...j2kSize(b, 4) };
  throw new Icao9303Error('BIOMETRIC_MALFORMED', field, 'image data is neither JPEG (FFD8FF) nor JPEG 2000 (JP2 box / FF4FFF51)');
}

function jpegSize(b: Uint8Array): { width?: number; height?: number } {
  let p = 2;
  while (p + 9 < b.length) {
    if (b[p] !== 0xff) return {};
    const marker = b[p + 1];
    const len = (b[p + 2] << 8) | b[p + 3];
    // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC) carry the frame size (ISO/IEC 10918-1 B.2.2)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (b[p + 5] << 8) | b[p + 6], width: (b[p + 7] << 8) | b[p + 8] };
    }
    p += 2 + len;
  }
  return {};
}

function jp2Size(b: Uint8Array): { width?: number; height?: number } {
  // ihdr box (ISO/IEC 15444-1 I.5.3.1): HEIGHT(4) WIDTH(4)
  for (let i = 12; i + 16 < b.length && i < 4096; i++) {
    if (b[i] === 0x69 && b[i + 1] === 0x68 && b[i + 2] === 0x64 && b[i + 3] === 0x72) {
      const dv = new DataView(b.buffer, b.byteOffset + i + 4, 8);
      return { height: dv.getUint32(0), width: dv.getUint32(4) };
    }
  }
  return {};
}

function j2kSize(b: Uint8Array, sizOffset: number): { width?: number; height?: number } {
  // SIZ marker segment (ISO/IEC 15444-1 A.5.1): Lsiz(2) Rsiz(2) Xsiz(4) Ysiz(4) XOsiz(4) YOsiz(4)
  if (b.length < sizOffset + 20) return {};
  const dv = new DataView(b.buffer, b.byteOffset + sizOffset + 4, 16);
  return { width: dv.getUint32(0) - dv.getUint32(8), height: dv.getUint32(4) - dv.getUint32(12) };
}
