import type { BitReader } from './bit-reader.js';
import type { HuffmanTable } from './huffman-table.js';
import { blockOffset, ZIGZAG, type JpegFrame, type Scan, type ScanComponent } from './jpeg-frame.js';

/** Decodes one block of a scan into `out` at `offset` (64 coefficients, natural order). */
type BlockDecoder = (reader: BitReader, s: ScanComponent, out: Int16Array, offset: number) => void;

/**
 * Decodes a scan's entropy-coded data into the components' coefficient stores (T.81 Annex F for sequential, Annex G
 * for progressive scans). `rowDone(row)` runs after each MCU row (a block row in a scan of one component), so a
 * store holding one MCU row can be turned into pixels before the next overwrites it.
 */
export function decodeScan(reader: BitReader, frame: JpegFrame, scan: Scan, rowDone?: (row: number) => void): void {
  // Blocks still inside an end-of-band run (progressive AC scans, T.81 §G.1.2.2): they take no bits.
  const band = { eobRun: 0 };
  const decoders = blockDecoders(scan, band);
  const decode =
    decoders[frame.progressive ? (scan.ss === 0 ? (scan.ah === 0 ? 'dcFirst' : 'dcRefine') : scan.ah === 0 ? 'acFirst' : 'acRefine') : 'sequential'];
  let unit = 0;
  let restarts = 0;
  const nextUnit = () => {
    if (scan.restartInterval > 0 && unit > 0 && unit % scan.restartInterval === 0) {
      reader.restart(restarts++ & 7);
      for (const s of scan.components) s.component.dcPrediction = 0;
      band.eobRun = 0;
    }
    unit++;
  };
  for (const s of scan.components) s.component.dcPrediction = 0;

  if (scan.components.length === 1) {
    // Non-interleaved: the component's own blocks in raster order, one block per MCU (T.81 §A.2.2).
    const s = scan.components[0];
    const c = s.component;
    for (let row = 0; row < c.blocksPerColumn; row++) {
      for (let column = 0; column < c.blocksPerLine; column++) {
        nextUnit();
        decode(reader, s, c.coefficients, blockOffset(c, row, column));
      }
      rowDone?.(row);
    }
    return;
  }
  for (let mcuRow = 0; mcuRow < frame.mcusPerColumn; mcuRow++) {
    for (let mcuColumn = 0; mcuColumn < frame.mcusPerLine; mcuColumn++) {
      nextUnit();
      for (const s of scan.components) {
        const c = s.component;
        for (let v = 0; v < c.v; v++) {
          for (let h = 0; h < c.h; h++) decode(reader, s, c.coefficients, blockOffset(c, mcuRow * c.v + v, mcuColumn * c.h + h));
        }
      }
    }
    rowDone?.(mcuRow);
  }
}

/** T.81 §F.2.2.1: the `size` bits that follow a Huffman code, as a signed value. */
function receiveExtend(reader: BitReader, size: number): number {
  if (size === 0) return 0;
  if (size > 16) throw new RangeError('JPEG coefficient size out of range');
  const value = reader.bits(size);
  return value < 1 << (size - 1) ? value - (1 << size) + 1 : value;
}

function decodeDc(reader: BitReader, table: HuffmanTable): number {
  return receiveExtend(reader, table.decode(reader));
}

function blockDecoders(scan: Scan, band: { eobRun: number }): Record<'sequential' | 'dcFirst' | 'dcRefine' | 'acFirst' | 'acRefine', BlockDecoder> {
  const { ss, se, al } = scan;
  const bit = 1 << al;
  return {
    sequential(reader, s, out, offset) {
      out.fill(0, offset, offset + 64);
      s.component.dcPrediction += decodeDc(reader, s.dc!);
      out[offset] = s.component.dcPrediction;
      for (let k = 1; k < 64;) {
        const rs = s.ac!.decode(reader);
        const run = rs >> 4;
        const size = rs & 15;
        if (size === 0) {
          if (run < 15) break; // end of block
          k += 16;
          continue;
        }
        k += run;
        if (k > 63) throw new RangeError('JPEG block has more than 64 coefficients');
        out[offset + ZIGZAG[k++]] = receiveExtend(reader, size);
      }
    },
    dcFirst(reader, s, out, offset) {
      s.component.dcPrediction += decodeDc(reader, s.dc!);
      out[offset] = s.component.dcPrediction * bit;
    },
    dcRefine(reader, _s, out, offset) {
      if (reader.bits(1)) out[offset] |= bit;
    },
    acFirst(reader, s, out, offset) {
      if (band.eobRun > 0) {
        band.eobRun--;
        return;
      }
      for (let k = ss; k <= se;) {
        const rs = s.ac!.decode(reader);
        const run = rs >> 4;
        const size = rs & 15;
        if (size === 0) {
          if (run < 15) {
            band.eobRun = (1 << run) - 1 + (run > 0 ? reader.bits(run) : 0);
            return;
          }
          k += 16;
          continue;
        }
        k += run;
        if (k > se) throw new RangeError('JPEG band has more coefficients than its spectral selection');
        out[offset + ZIGZAG[k++]] = receiveExtend(reader, size) * bit;
      }
    },
    acRefine(reader, s, out, offset) {
      // T.81 §G.1.2.3: newly non-zero coefficients (±1 at this bit) and a correction bit for each one already non-zero.
      let k = ss;
      if (band.eobRun === 0) {
        for (; k <= se; k++) {
          const rs = s.ac!.decode(reader);
          let run = rs >> 4;
          let value = 0;
          if ((rs & 15) !== 0) {
            if ((rs & 15) !== 1) throw new RangeError('JPEG refinement with a coefficient of more than one bit');
            value = reader.bits(1) ? bit : -bit;
          } else if (run !== 15) {
            band.eobRun = (1 << run) + (run > 0 ? reader.bits(run) : 0);
            break;
          }
          for (; k <= se; k++) {
            const z = offset + ZIGZAG[k];
            if (out[z] !== 0) refine(reader, out, z, bit);
            else if (--run < 0) break;
          }
          if (value !== 0) {
            if (k > se) throw new RangeError('JPEG refinement past its spectral selection');
            out[offset + ZIGZAG[k]] = value;
          }
        }
      }
      if (band.eobRun > 0) {
        for (; k <= se; k++) {
          const z = offset + ZIGZAG[k];
          if (out[z] !== 0) refine(reader, out, z, bit);
        }
        band.eobRun--;
      }
    },
  };
}

/** A correction bit for a coefficient already non-zero: 1 moves it one `bit` further from zero. */
function refine(reader: BitReader, out: Int16Array, z: number, bit: number): void {
  if (reader.bits(1) && (out[z] & bit) === 0) out[z] += out[z] >= 0 ? bit : -bit;
}
