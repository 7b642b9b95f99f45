export type ImageFormat = 'jpeg' | 'png' | 'jp2' | 'j2k';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
// JP2 file format signature box: length 12, type 'jP  ', content 0D 0A 87 0A (ISO/IEC 15444-1 I.5.1).
const JP2_SIGNATURE = [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a];
// Raw JPEG 2000 codestream: SOC marker followed by SIZ marker.
const J2K_SIGNATURE = [0xff, 0x4f, 0xff, 0x51];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

/** Identifies the format from magic bytes; file names and MIME types from clients are not trusted. */
export function detectImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (startsWith(bytes, JPEG_SIGNATURE)) return 'jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (startsWith(bytes, JP2_SIGNATURE)) return 'jp2';
  if (startsWith(bytes, J2K_SIGNATURE)) return 'j2k';
  return undefined;
}

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return bytes.length >= signature.length && signature.every((value, i) => bytes[i] === value);
}
