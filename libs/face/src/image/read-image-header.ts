import { crc32 } from 'node:zlib';
import { FaceError } from '../errors.js';
import { detectImageFormat, type ImageFormat } from './detect-image-format.js';
import { extractJ2kCodestream } from './jp2-codestream.js';
import { readJpegHeader } from './jpeg/read-jpeg-header.js';

/** What an image says about itself before any pixel is decoded. */
export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
  /** Components (channels) declared: JPEG Nf, the channels of a PNG's colour type (a palette index is one), JPEG 2000 Csiz. */
  components: number;
  /** Bits per sample: JPEG P, PNG bit depth, the deepest JPEG 2000 component's. */
  bitDepth: number;
  /** JPEG only: the coding process (its SOF marker, T.81 Table B.1), whether hierarchical, and Σ Hi × Vi. */
  jpeg?: { sof: number; hierarchical: boolean; mcuBlocks: number };
  /** PNG only: Adam7 interlacing (pngjs inflates those without an output bound). */
  interlaced?: boolean;
}

/**
 * Reads the declared dimensions, components and depth from the header alone (a few dozen bytes, or the JPEG
 * segments up to the first scan; nothing decompressed), so that an image can be refused before a decoder
 * allocates for it or spends CPU on it. Throws FaceError BAD_IMAGE when the format is not one of these or the
 * header is missing, cut short or malformed; what is decoded is judged apart (decode-limits.ts).
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader {
  const format = detectImageFormat(bytes);
  if (!format) throw new FaceError('BAD_IMAGE', 'unrecognised image format (expected JPEG, PNG or JPEG 2000)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (format === 'png') return { format, ...pngHeader(bytes, view) };
    if (format === 'jpeg') {
      const { sof, hierarchical, mcuBlocks, ...declared } = readJpegHeader(bytes);
      return { format, ...declared, jpeg: { sof, hierarchical, mcuBlocks } };
    }
    return { format, ...j2kHeader(bytes) };
  } catch (error) {
    if (error instanceof FaceError) throw error;
    throw new FaceError('BAD_IMAGE', `cannot read the ${format} header: ${(error as Error).message}`, { cause: error });
  }
}

type Declared = Pick<ImageHeader, 'width' | 'height' | 'components' | 'bitDepth'>;

/** Channels per PNG colour type and the bit depths each allows (PNG spec, ISO/IEC 15948, §11.2.2 Table 11.1). */
const PNG_COLOUR_TYPES: Record<number, { channels: number; depths: number[] }> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] }, // greyscale
  2: { channels: 3, depths: [8, 16] }, // truecolour
  3: { channels: 1, depths: [1, 2, 4, 8] }, // indexed-colour
  4: { channels: 2, depths: [8, 16] }, // greyscale with alpha
  6: { channels: 4, depths: [8, 16] }, // truecolour with alpha
};

/**
 * IHDR must be the first chunk (§5.6), 13 bytes (§11.2.2): width, height (1 to 2^31 - 1 each), bit depth, colour
 * type (Table 11.1 combinations only), compression method 0 (§10), filter method 0 (§9), interlace 0 or 1 (§8);
 * its CRC covers type and data (§5.3), so a flipped bit in the header is refused here, not by the inflater.
 */
function pngHeader(bytes: Uint8Array, view: DataView): Declared & { interlaced: boolean } {
  if (bytes.length < 33 || view.getUint32(8) !== 13 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') {
    throw new FaceError('BAD_IMAGE', 'PNG does not start with an IHDR chunk');
  }
  if (crc32(bytes.subarray(12, 29)) !== view.getUint32(29)) throw new FaceError('BAD_IMAGE', 'PNG IHDR chunk fails its CRC');
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  const [bitDepth, colourType, compression, filter, interlace] = bytes.subarray(24, 29);
  if (width > 0x7fffffff || height > 0x7fffffff) throw new FaceError('BAD_IMAGE', 'PNG declares a side over 2^31 - 1');
  const colour = PNG_COLOUR_TYPES[colourType];
  if (!colour?.depths.includes(bitDepth)) throw new FaceError('BAD_IMAGE', `PNG colour type ${colourType} with bit depth ${bitDepth} does not exist`);
  if (compression !== 0 || filter !== 0 || interlace > 1) throw new FaceError('BAD_IMAGE', 'PNG declares an unknown compression, filter or interlace method');
  return { width, height, components: colour.channels, bitDepth, interlaced: interlace === 1 };
}

/**
 * The SIZ marker right after SOC (ISO/IEC 15444-1 §A.5.1, Table A.9): Lsiz = 38 + 3 × Csiz; the image area is
 * Xsiz - XOsiz by Ysiz - YOsiz with Csiz components, each with Ssiz (depth - 1, bit 7 the sign: 1 to 38 bits) and
 * sub-sampling XRsiz, YRsiz of 1 or more. The codec decodes by SIZ, so SIZ is what is checked; a JP2 'ihdr' box
 * (§I.5.3.1) that disagrees with it marks a crafted file and is refused.
 */
function j2kHeader(bytes: Uint8Array): Declared {
  const codestream = extractJ2kCodestream(bytes);
  const view = new DataView(codestream.buffer, codestream.byteOffset, codestream.byteLength);
  if (codestream.length < 42 || view.getUint16(0) !== 0xff4f || view.getUint16(2) !== 0xff51) {
    throw new FaceError('BAD_IMAGE', 'JPEG 2000 codestream does not start with SOC and SIZ');
  }
  const width = view.getUint32(8) - view.getUint32(16);
  const height = view.getUint32(12) - view.getUint32(20);
  const components = view.getUint16(40);
  if (components < 1 || view.getUint16(4) !== 38 + 3 * components || codestream.length < 42 + 3 * components) {
    throw new FaceError('BAD_IMAGE', `JPEG 2000 SIZ segment does not hold its ${components} components`);
  }
  let bitDepth = 0;
  for (let at = 42; at < 42 + 3 * components; at += 3) {
    const depth = (codestream[at] & 0x7f) + 1;
    if (depth > 38 || codestream[at + 1] < 1 || codestream[at + 2] < 1)
      throw new FaceError('BAD_IMAGE', 'JPEG 2000 component with an invalid depth or sub-sampling');
    bitDepth = Math.max(bitDepth, depth);
  }
  const ihdr = codestream === bytes ? undefined : jp2ImageHeaderBox(bytes);
  if (ihdr && (ihdr.width !== width || ihdr.height !== height)) {
    throw new FaceError('BAD_IMAGE', `JP2 header (${ihdr.width}x${ihdr.height}) and codestream (${width}x${height}) disagree`);
  }
  return { width, height, components, bitDepth };
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
