import { FaceError } from '../errors.js';
import type { ImageFormat } from './detect-image-format.js';
import { readImageHeader, type ImageHeader } from './read-image-header.js';

/**
 * Largest image decoded at all, by its declared size and format; anything larger is refused from its header,
 * before a byte is decompressed (a kilobyte can declare 16 MP). Each format's ceiling follows what decoding it costs:
 * - JPEG, 12.5 MP: a phone's frame (4000x3000, 4032x3024, a 50 MP sensor's binned 4080x3060). A JPEG is decoded
 *   at 1/2, 1/4 or 1/8 scale in the DCT domain when it is analysed (decodeImageToFit), so no more than
 *   (2 x MAX_ANALYSIS_SIDE)² pixels of it ever exist; the coefficients it holds meanwhile are one MCU row for a
 *   sequential JPEG, 3 bytes a pixel at most (4:4:4, 2 bytes a coefficient) for a progressive one.
 * - PNG, 4 MP (2048x2048): inflated and decoded in full, 10-15 bytes a pixel at the peak (inflated rows, pngjs's
 *   RGBA, our RGB). No phone sends PNG frames, and a face needs far fewer pixels (see MAX_ANALYSIS_SIDE).
 * - JPEG 2000, 1 MP: decoded in full in the codec's WebAssembly heap, which grows by about 13 bytes a pixel and
 *   never shrinks, at up to 2 s of CPU a megapixel (lossless). It is the chip photo's format (ICAO 9303-10,
 *   ISO/IEC 19794-5), and chip photos are 0.1-0.5 MP (about 420x525 to 600x800).
 */
export const MAX_IMAGE_PIXELS: Record<ImageFormat, number> = { jpeg: 12_500_000, png: 4_194_304, jp2: 1_048_576, j2k: 1_048_576 };
/** Ceiling for pixels given already decoded (RGB): the largest any format decodes to. */
export const MAX_RGB_PIXELS = MAX_IMAGE_PIXELS.jpeg;
/** Longest side accepted: refuses 1 x 12,000,000 strips that pass the pixel count but no camera makes. */
export const MAX_IMAGE_SIDE = 8192;
/**
 * Longest side the face engine works on; larger images are scaled down (area average) before any tensor
 * is built. SSD MobileNet sees 512x512 anyway and the descriptor a 150x150 face crop: at 1024 a face
 * spanning a seventh of the frame still gives the descriptor its full 150 pixels, and the padded copies
 * the engine makes for tight crops (up to 3x each side) stay under 30 MB of pixels.
 */
export const MAX_ANALYSIS_SIDE = 1024;

/** Refuses an image by its declared dimensions (FaceError TOO_LARGE, or BAD_IMAGE for a zero size). */
export function assertDecodableSize(format: ImageFormat | 'RGB', width: number, height: number): void {
  if (!(width >= 1 && height >= 1)) throw new FaceError('BAD_IMAGE', `${format} image declares no pixels (${width}x${height})`);
  const maxPixels = format === 'RGB' ? MAX_RGB_PIXELS : MAX_IMAGE_PIXELS[format];
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > maxPixels) {
    throw new FaceError(
      'TOO_LARGE',
      `${format} image of ${width}x${height} pixels is too large (at most ${megapixels(maxPixels)} megapixels, ${MAX_IMAGE_SIDE} pixels a side)`,
    );
  }
}

/**
 * An image's header read and judged (readImageHeader, then assertDecodable): what the face step does to every frame
 * before it decodes any, and what decodeImage does again before it decodes one.
 */
export function readDecodableHeader(bytes: Uint8Array): ImageHeader {
  const header = readImageHeader(bytes);
  assertDecodable(header);
  return header;
}

/**
 * Refuses from its header what would be refused once decoding began (FaceError BAD_IMAGE) or is too large
 * (TOO_LARGE), so a frame that cannot be used costs nothing and no other frame is decoded for it. The decoders take:
 * - JPEG (decode-jpeg.ts): baseline, extended sequential and progressive Huffman (SOF0, SOF1, SOF2; ITU-T T.81
 *   Table B.1), not hierarchical, 8-bit samples (P = 8), one or three components, at most 10 blocks in an MCU
 *   interleaving them (§B.2.3 bounds interleaved scans; T.81 would let such a frame be coded one component a scan,
 *   which no camera does, while every camera's 4:2:0, 4:2:2 and 4:4:4 fit);
 * - PNG: every valid IHDR (pngjs expands each colour type and depth to 8-bit RGBA);
 * - JPEG 2000: one (grey), three (colour) or four (colour and alpha) components of at most 16 bits (the codec
 *   answers samples deeper than 8 bits as 16-bit words: decode-jpeg2000.ts).
 */
export function assertDecodable(header: ImageHeader): void {
  assertDecodableSize(header.format, header.width, header.height);
  const problem = undecodable(header);
  if (problem) throw new FaceError('BAD_IMAGE', problem);
}

/** T.81 Table B.1: the processes the start-of-frame markers name. */
const JPEG_PROCESSES: Record<number, string> = { 0xc3: 'lossless', 0xc9: 'arithmetic', 0xca: 'progressive arithmetic', 0xcb: 'lossless arithmetic' };

function undecodable({ format, components, bitDepth, jpeg }: ImageHeader): string | undefined {
  if (jpeg) {
    if (jpeg.hierarchical) return 'hierarchical JPEG is not decoded (baseline, extended and progressive Huffman only)';
    if (jpeg.sof > 0xc2) {
      const name = JPEG_PROCESSES[jpeg.sof] ?? 'differential';
      return `JPEG of the ${name} process (SOF${jpeg.sof - 0xc0}) is not decoded (baseline, extended and progressive Huffman only)`;
    }
    if (bitDepth !== 8) return `${bitDepth}-bit JPEG is not decoded (8-bit only)`;
    if (components !== 1 && components !== 3)
      return `JPEG with ${components} components is not decoded (grey or colour only${components === 4 ? ': no CMYK' : ''})`;
    if (jpeg.mcuBlocks > 10) return `JPEG whose MCU holds ${jpeg.mcuBlocks} blocks is not decoded (at most 10)`;
  }
  if (format === 'jp2' || format === 'j2k') {
    if (components !== 1 && components !== 3 && components !== 4) return `JPEG 2000 with ${components} components is not decoded (1, 3 or 4)`;
    if (bitDepth > 16) return `${bitDepth}-bit JPEG 2000 is not decoded (16 bits at most)`;
  }
  return undefined;
}

const megapixels = (pixels: number) => Number((pixels / 1_000_000).toFixed(1));
