import type { BitReader } from './bit-reader.js';

/** Codes up to this length are decoded with one table look-up; longer ones (rare) code length by code length. */
const LOOKUP_BITS = 9;

/** A Huffman table of a DHT segment (T.81 §B.2.4.2, Annex C), decoding by the canonical codes it generates. */
export class HuffmanTable {
  /** By the next LOOKUP_BITS bits: (code length << 8) | value, or 0 when the code is longer. */
  private readonly lookup = new Uint16Array(1 << LOOKUP_BITS);
  /** Largest code of each length (-1: none), and the offset from a code to its value's index (T.81 §F.2.2.3). */
  private readonly maxCode = new Int32Array(17).fill(-1);
  private readonly valueOffset = new Int32Array(17);

  /** `counts`: the number of codes of each length 1-16; `values`: the symbols, in code order. */
  constructor(
    counts: Uint8Array,
    private readonly values: Uint8Array,
  ) {
    let code = 0;
    let k = 0;
    for (let length = 1; length <= 16; length++) {
      this.valueOffset[length] = k - code;
      for (let i = 0; i < counts[length - 1]; i++, code++, k++) {
        if (length > LOOKUP_BITS) continue;
        const shift = LOOKUP_BITS - length;
        this.lookup.fill((length << 8) | values[k], code << shift, (code + 1) << shift);
      }
      if (code > 1 << length) throw new RangeError('JPEG Huffman table has more codes than its lengths allow');
      if (counts[length - 1] > 0) this.maxCode[length] = code - 1;
      code <<= 1;
    }
  }

  decode(reader: BitReader): number {
    const entry = this.lookup[reader.peek(LOOKUP_BITS)];
    if (entry !== 0) {
      reader.skip(entry >> 8);
      return entry & 0xff;
    }
    for (let length = LOOKUP_BITS + 1; length <= 16; length++) {
      const code = reader.peek(length);
      if (code <= this.maxCode[length]) {
        reader.skip(length);
        return this.values[code + this.valueOffset[length]];
      }
    }
    throw new RangeError('JPEG data holds a code its Huffman table does not define');
  }
}
