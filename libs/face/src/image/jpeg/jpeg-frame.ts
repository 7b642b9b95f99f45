import type { HuffmanTable } from './huffman-table.js';

/** Zig-zag index → natural (row-major) index of a coefficient in its 8x8 block (T.81 Figure A.6). */
export const ZIGZAG = Uint8Array.from([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22,
  15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]);

export interface JpegComponent {
  id: number;
  /** Sampling factors (1 for the only component of a grey image: T.81 §A.2). */
  h: number;
  v: number;
  /** Quantization table selector; the table itself is taken at the component's first scan. */
  tq: number;
  quantization?: Uint16Array;
  /** Blocks covering the component's own samples (T.81 §A.1.1, §A.2.2). */
  blocksPerLine: number;
  blocksPerColumn: number;
  /** Coefficients in natural order, 64 per block, rows of whole MCUs; `storeRows` block rows held (all, or one MCU row). */
  coefficients: Int16Array;
  storeBlocksPerLine: number;
  storeRows: number;
  dcPrediction: number;
}

export interface JpegFrame {
  progressive: boolean;
  width: number;
  height: number;
  hMax: number;
  vMax: number;
  mcusPerLine: number;
  mcusPerColumn: number;
  components: JpegComponent[];
}

export interface ScanComponent {
  component: JpegComponent;
  dc?: HuffmanTable;
  ac?: HuffmanTable;
}

export interface Scan {
  components: ScanComponent[];
  /** Spectral selection and successive approximation (T.81 §B.2.3, §G.1.1.1). */
  ss: number;
  se: number;
  ah: number;
  al: number;
  restartInterval: number;
}

/** The frame header (T.81 §B.2.2): 8-bit precision, one (grey) or three components, sampling factors 1-4. */
export function readFrame(segment: Uint8Array, progressive: boolean): JpegFrame {
  const [precision, heightHi, heightLo, widthHi, widthLo, count] = segment;
  if (precision !== 8) throw new RangeError(`${precision}-bit JPEG is not supported (8-bit only)`);
  if (count !== 1 && count !== 3) throw new RangeError(`JPEG with ${count} components is not supported (grey or colour only)`);
  if (segment.length < 6 + 3 * count) throw new RangeError('JPEG frame header too short');
  const width = (widthHi << 8) | widthLo;
  const height = (heightHi << 8) | heightLo;
  const components: JpegComponent[] = [];
  for (let i = 0; i < count; i++) {
    const [id, sampling, tq] = segment.subarray(6 + 3 * i, 9 + 3 * i);
    const h = count === 1 ? 1 : sampling >> 4;
    const v = count === 1 ? 1 : sampling & 15;
    if (h < 1 || h > 4 || v < 1 || v > 4 || tq > 3) throw new RangeError('JPEG component has invalid sampling factors or table');
    if (components.some((c) => c.id === id)) throw new RangeError('JPEG frame names a component twice');
    components.push({
      id,
      h,
      v,
      tq,
      blocksPerLine: 0,
      blocksPerColumn: 0,
      coefficients: new Int16Array(0),
      storeBlocksPerLine: 0,
      storeRows: 0,
      dcPrediction: 0,
    });
  }
  const hMax = Math.max(...components.map((c) => c.h));
  const vMax = Math.max(...components.map((c) => c.v));
  for (const c of components) {
    c.blocksPerLine = Math.ceil(Math.ceil((width * c.h) / hMax) / 8);
    c.blocksPerColumn = Math.ceil(Math.ceil((height * c.v) / vMax) / 8);
  }
  return { progressive, width, height, hMax, vMax, mcusPerLine: Math.ceil(width / (8 * hMax)), mcusPerColumn: Math.ceil(height / (8 * vMax)), components };
}

/**
 * Allocates the coefficient store: every block of the image (progressive and multi-scan images refine blocks over
 * several scans), or with `oneMcuRow` only the MCU row being decoded, turned into pixels as soon as it is complete.
 */
export function allocateCoefficients(frame: JpegFrame, oneMcuRow: boolean): void {
  for (const c of frame.components) {
    c.storeBlocksPerLine = frame.mcusPerLine * c.h;
    c.storeRows = oneMcuRow ? c.v : frame.mcusPerColumn * c.v;
    c.coefficients = new Int16Array(c.storeBlocksPerLine * c.storeRows * 64);
  }
}

/** Offset of a block's 64 coefficients in its component's store. */
export function blockOffset(c: JpegComponent, blockRow: number, blockColumn: number): number {
  return ((blockRow % c.storeRows) * c.storeBlocksPerLine + blockColumn) * 64;
}

/** The scan header (T.81 §B.2.3), checked against the frame and the process (sequential or progressive, §G.1.1.1.1). */
/* eslint-disable-next-line complexity -- the scan header's validity conditions of T.81 §B.2.3 and §G.1.1.1.1, checked
   together where the header is read */
export function readScan(segment: Uint8Array, frame: JpegFrame, dcTables: HuffmanTable[], acTables: HuffmanTable[], restartInterval: number): Scan {
  const count = segment[0];
  if (count < 1 || count > 4 || segment.length < 4 + 2 * count) throw new RangeError('JPEG scan header malformed');
  const components: ScanComponent[] = [];
  for (let i = 0; i < count; i++) {
    const component = frame.components.find((c) => c.id === segment[1 + 2 * i]);
    if (!component || components.some((s) => s.component === component)) throw new RangeError('JPEG scan names an unknown or repeated component');
    const tables = segment[2 + 2 * i];
    components.push({ component, dc: dcTables[tables >> 4], ac: acTables[tables & 15] });
  }
  const [ss, se, approximation] = segment.subarray(1 + 2 * count, 4 + 2 * count);
  const scan: Scan = { components, ss, se, ah: approximation >> 4, al: approximation & 15, restartInterval };
  if (count > 1 && components.reduce((sum, s) => sum + s.component.h * s.component.v, 0) > 10) throw new RangeError('JPEG MCU has more than 10 blocks');
  if (!frame.progressive) {
    if (ss !== 0 || se !== 63 || approximation !== 0) throw new RangeError('sequential JPEG scan with spectral selection');
    if (components.some((s) => !s.dc || !s.ac)) throw new RangeError('JPEG scan uses an undefined Huffman table');
    return scan;
  }
  const dcScan = ss === 0;
  if ((dcScan && se !== 0) || (!dcScan && (se < ss || se > 63 || count !== 1)) || scan.al > 13 || scan.ah > 13) {
    throw new RangeError('progressive JPEG scan with invalid spectral selection or approximation');
  }
  const missing = dcScan ? scan.ah === 0 && components.some((s) => !s.dc) : !components[0].ac;
  if (missing) throw new RangeError('JPEG scan uses an undefined Huffman table');
  return scan;
}
