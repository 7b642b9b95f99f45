import type { RgbImage } from '../types.js';
import { BitReader, nextMarkerOffset } from './jpeg/bit-reader.js';
import { decodeScan } from './jpeg/decode-scan.js';
import { HuffmanTable } from './jpeg/huffman-table.js';
import { allocateCoefficients, readFrame, readScan, ZIGZAG, type JpegFrame } from './jpeg/jpeg-frame.js';
import { ComponentPlanes, toRgb } from './jpeg/jpeg-pixels.js';
import type { BlockSize } from './jpeg/scaled-idct.js';

/** Scales a JPEG decodes at in the DCT domain (T.81 has none; libjpeg's scale_denom 1, 2, 4, 8). */
export type JpegScale = 1 | 2 | 4 | 8;

/**
 * A progressive encoder writes about 10 scans (libjpeg's script for colour), a sequential one at most one per
 * component. Every scan walks all the blocks it covers, and one of a few bytes can cover them all (an end-of-band
 * run), so 100,000 scans in a 2 MB body would cost minutes of CPU: more than this is refused (libjpeg-turbo's djpeg
 * has -maxscans for the same reason).
 */
const MAX_SCANS = 64;

/**
 * Decodes a baseline, extended sequential or progressive Huffman JPEG (8-bit, grey or colour) to RGB at 1/`scale`
 * of its size, ceil(width / scale) x ceil(height / scale): each 8x8 block's inverse DCT is averaged over squares of
 * scale x scale as it is made, so the full-size picture never exists. The usual phone frame (sequential, one scan
 * of every component) is turned into pixels one MCU row at a time, holding the coefficients of that row only;
 * progressive and multi-scan images hold every block's coefficients (2 bytes each) until their last scan. Arithmetic coding,
 * lossless and hierarchical processes, 12-bit samples and CMYK are refused (RangeError), as are data ending
 * before the image does and markers out of place. The caller has checked the declared size (decode-limits.ts).
 */
/* eslint-disable-next-line complexity -- the marker loop of T.81 Annex B: one case per marker, each checking its
   segment's place in the stream against the state the loop holds (frame, tables, scans so far); split into functions,
   that state would have to travel between them */
export function decodeJpeg(bytes: Uint8Array, scale: JpegScale = 1): RgbImage {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new RangeError('JPEG does not start with SOI');
  const n = (8 / scale) as BlockSize;
  const quantTables: Uint16Array[] = [];
  const dcTables: HuffmanTable[] = [];
  const acTables: HuffmanTable[] = [];
  let frame: JpegFrame | undefined;
  let planes: ComponentPlanes | undefined;
  let restartInterval = 0;
  let scans = 0;
  let streamed = false;
  let adobeTransform: number | undefined;
  let jfif = false;

  let offset = 2;
  for (;;) {
    const at = nextMarkerOffset(bytes, offset);
    if (at < 0) break; // no EOI: what was read so far is the picture (libjpeg, browsers)
    const marker = bytes[at + 1];
    if (marker === 0xd9) break;
    if (marker === 0xd8) throw new RangeError('JPEG has a second SOI');
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset = at + 2; // a stray RSTn after a scan's data, or TEM: no length, nothing to read
      continue;
    }
    if (at + 4 > bytes.length) throw new RangeError('JPEG segment cut short');
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    if (length < 2 || at + 2 + length > bytes.length) throw new RangeError('JPEG segment cut short');
    const segment = bytes.subarray(at + 4, at + 2 + length);
    offset = at + 2 + length;
    switch (marker) {
      case 0xc0: // baseline
      case 0xc1: // extended sequential, Huffman
      case 0xc2: // progressive, Huffman
        if (frame) throw new RangeError('JPEG has more than one frame');
        frame = readFrame(segment, marker === 0xc2);
        break;
      case 0xc4:
        readHuffmanTables(segment, dcTables, acTables);
        break;
      case 0xdb:
        readQuantizationTables(segment, quantTables);
        break;
      case 0xdd:
        if (segment.length < 2) throw new RangeError('JPEG restart interval segment too short');
        restartInterval = (segment[0] << 8) | segment[1];
        break;
      case 0xe0:
        jfif ||= segment.length >= 5 && String.fromCharCode(...segment.subarray(0, 5)) === 'JFIF\0';
        break;
      case 0xee:
        if (segment.length >= 12 && String.fromCharCode(...segment.subarray(0, 5)) === 'Adobe') adobeTransform = segment[11];
        break;
      case 0xda: {
        if (!frame) throw new RangeError('JPEG scan before its frame header');
        if (streamed) throw new RangeError('sequential JPEG with a scan after the one that held every component');
        if (scans === MAX_SCANS) throw new RangeError(`JPEG has more than ${MAX_SCANS} scans`);
        const scan = readScan(segment, frame, dcTables, acTables, restartInterval);
        if (scans++ === 0) {
          streamed = !frame.progressive && scan.components.length === frame.components.length;
          allocateCoefficients(frame, streamed);
          planes = new ComponentPlanes(frame, n);
        }
        for (const { component } of scan.components) {
          // A component's quantization table is the one defined when its first scan starts (T.81 §B.2.4.1).
          component.quantization ??= quantTables[component.tq];
          if (!component.quantization) throw new RangeError('JPEG scan uses an undefined quantization table');
        }
        const reader = new BitReader(bytes, offset);
        const rows = planes!;
        decodeScan(reader, frame, scan, streamed ? (row) => rows.addMcuRow(row) : undefined);
        offset = reader.offset;
        break;
      }
      default:
        if ((marker >= 0xc3 && marker <= 0xcf && marker !== 0xc8 && marker !== 0xcc) || marker === 0xdc) {
          throw new RangeError(`JPEG process of marker ${marker.toString(16)} is not supported (baseline and progressive Huffman only)`);
        }
      // APPn, COM, DAC/DHP/EXP and the reserved markers carry nothing the picture needs.
    }
  }
  if (!frame || scans === 0) throw new RangeError('JPEG has no image data');
  if (frame.components.some((c) => !c.quantization)) throw new RangeError('JPEG has a component that no scan holds');
  if (!streamed) planes!.addAll();
  return toRgb(frame, planes!, colourOf(frame, jfif, adobeTransform));
}

function colourOf(frame: JpegFrame, jfif: boolean, adobeTransform: number | undefined): 'grey' | 'ycbcr' | 'rgb' {
  if (frame.components.length === 1) return 'grey';
  if (adobeTransform !== undefined) return adobeTransform === 0 ? 'rgb' : 'ycbcr';
  if (!jfif && frame.components.map((c) => String.fromCharCode(c.id)).join('') === 'RGB') return 'rgb';
  return 'ycbcr';
}

/** DHT (T.81 §B.2.4.2): one or more tables, each class (DC 0, AC 1), destination 0-3, 16 counts, then the values. */
function readHuffmanTables(segment: Uint8Array, dcTables: HuffmanTable[], acTables: HuffmanTable[]): void {
  for (let at = 0; at < segment.length;) {
    if (at + 17 > segment.length) throw new RangeError('JPEG Huffman table cut short');
    const kind = segment[at] >> 4;
    const destination = segment[at] & 15;
    if (kind > 1 || destination > 3) throw new RangeError('JPEG Huffman table with an invalid class or destination');
    const counts = segment.subarray(at + 1, at + 17);
    const total = counts.reduce((sum, count) => sum + count, 0);
    if (total > 256 || at + 17 + total > segment.length) throw new RangeError('JPEG Huffman table cut short');
    (kind === 0 ? dcTables : acTables)[destination] = new HuffmanTable(counts, segment.slice(at + 17, at + 17 + total));
    at += 17 + total;
  }
}

/** DQT (T.81 §B.2.4.1): tables of 64 8- or 16-bit values in zig-zag order, kept in natural order. */
function readQuantizationTables(segment: Uint8Array, quantTables: Uint16Array[]): void {
  for (let at = 0; at < segment.length;) {
    const wide = segment[at] >> 4;
    const destination = segment[at] & 15;
    if (wide > 1 || destination > 3) throw new RangeError('JPEG quantization table with an invalid precision or destination');
    if (at + 1 + 64 * (wide + 1) > segment.length) throw new RangeError('JPEG quantization table cut short');
    const table = new Uint16Array(64);
    for (let k = 0; k < 64; k++) table[ZIGZAG[k]] = wide ? (segment[at + 1 + 2 * k] << 8) | segment[at + 2 + 2 * k] : segment[at + 1 + k];
    quantTables[destination] = table;
    at += 1 + 64 * (wide + 1);
  }
}
