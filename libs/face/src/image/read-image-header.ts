import { FaceError } from '../errors.js';
import { detectImageFormat, type ImageFormat } from './detect-image-format.js';
import { extractJ2kCodestream } from './jp2-codestream.js';

/** What an image says about itself before any pixel is decoded. */
export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
  /** PNG only: Adam7 interlacing (pngjs inflates those without an output bound). */
  interlaced?: boolean;
}

/**
 * Reads the declared dimensions from the header alone (a few dozen bytes, nothing decompressed), so that
 * an image can be refused by its size before a decoder allocates for it. Throws FaceError BAD_IMAGE when
 * the header is missing or malformed.
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader {
  const format = detectImageFormat(bytes);
  if (!format) throw new FaceError('BAD_IMAGE', 'unrecognised image format (expected JPEG, PNG or JPEG 2000)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (format === 'png') return { format, ...pngHeader(bytes, view) };
    if (format === 'jpeg') return { format, ...jpegHeader(bytes, view) };
    return { format, ...j2kHeader(bytes) };
  } catch (error) {
    if (error instanceof FaceError) throw error;
    throw new FaceError('BAD_IMAGE', `cannot read the ${format} header: ${(error as Error).message}`, { cause: error });
  }
}

/** PNG spec (ISO/IEC 15948) §11.2.2: IHDR is the first chunk, 13 bytes: width, height, depth, colour type, compression, filter, interlace. */
function pngHeader(bytes: Uint8Array, view: DataView): { width: number; height: number; interlaced: boolean } {
  if (bytes.length < 33 || view.getUint32(8) !== 13 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') {
    throw new FaceError('BAD_IMAGE', 'PNG does not start with an IHDR chunk');
  }
  return { width: view.getUint32(16), height: view.getUint32(20), interlaced: bytes[28] !== 0 };
}

/** Start-of-frame markers (ITU-T T.81 §B.1.1.3): C0-CF except DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Walks the marker segments to the frame header (T.81 §B.2.2: P, Y = lines, X = samples per line). */
function jpegHeader(bytes: Uint8Array, view: DataView): { width: number; height: number } {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) throw new FaceError('BAD_IMAGE', 'JPEG marker expected');
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset++; // fill byte (T.81 §B.1.1.2)
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      offset += 2; // TEM, RSTn, SOI carry no length
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break; // scan or end before any frame header
    const length = view.getUint16(offset + 2);
    if (isStartOfFrame(marker)) {
      if (offset + 9 > bytes.length) break;
      // Y = 0 means "defined later by a DNL marker": no size to check, so not accepted.
      return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    }
    offset += 2 + length;
  }
  throw new FaceError('BAD_IMAGE', 'JPEG has no frame header');
}

/**
 * The SIZ marker right after SOC (ISO/IEC 15444-1 §A.5.1): the image area is Xsiz - XOsiz by Ysiz - YOsiz
 * with Csiz components. The codec decodes by SIZ, so SIZ is what is checked; a JP2 'ihdr' box (§I.5.3.1)
 * that disagrees with it marks a crafted file and is refused.
 */
function j2kHeader(bytes: Uint8Array): { width: number; height: number } {
  const codestream = extractJ2kCodestream(bytes);
  const view = new DataView(codestream.buffer, codestream.byteOffset, codestream.byteLength);
  if (codestream.length < 42 || view.getUint16(0) !== 0xff4f || view.getUint16(2) !== 0xff51) {
    throw new FaceError('BAD_IMAGE', 'JPEG 2000 codestream does not start with SOC and SIZ');
  }
  const width = view.getUint32(8) - view.getUint32(16);
  const height = view.getUint32(12) - view.getUint32(20);
  const components = view.getUint16(40);
  if (components < 1 || components > 4) throw new FaceError('BAD_IMAGE', `JPEG 2000 image has ${components} components (1 to 4 are read)`);
  const ihdr = codestream === bytes ? undefined : jp2ImageHeaderBox(bytes);
  if (ihdr && (ihdr.width !== width || ihdr.height !== height)) {
    throw new FaceError('BAD_IMAGE', `JP2 header (${ihdr.width}x${ihdr.height}) and codestream (${width}x${height}) disagree`);
  }
  return { width, height };
}

/** The 'ihdr' box inside the 'jp2h' superbox: HEIGHT then WIDTH, 4 bytes each (15444-1 §I.5.3.1). */
function jp2ImageHeaderBox(bytes: Uint8Array): { width: number; height: number } | undefined {
  const jp2h = findBox(bytes, 0, bytes.length, 'jp2h');
  const ihdr = jp2h && findBox(bytes, jp2h.start, jp2h.end, 'ihdr');
  if (!ihdr || ihdr.end - ihdr.start < 8) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset + ihdr.start, 8);
  return { height: view.getUint32(0), width: view.getUint32(4) };
}

/** Content range of the first box of `type` among the boxes in [from, to) (15444-1 §I.4: LBox, TBox, content). */
function findBox(bytes: Uint8Array, from: number, to: number, type: string): { start: number; end: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = from;
  while (offset + 8 <= to) {
    const length = view.getUint32(offset);
    const end = length === 0 ? to : offset + length;
    if (length !== 0 && (length < 8 || end > to)) return undefined; // extended lengths never occur in a header box
    if (String.fromCharCode(...bytes.subarray(offset + 4, offset + 8)) === type) return { start: offset + 8, end };
    offset = end;
  }
  return undefined;
}
