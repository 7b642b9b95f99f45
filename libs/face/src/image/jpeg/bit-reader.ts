/**
 * The entropy-coded data of a JPEG scan, bit by bit, most significant first, without the zero byte stuffed after
 * each 0xFF (ITU-T T.81 §F.1.2.3). It stops at a marker (or the end of the file) and hands out zero bits past it;
 * taking any of those means the data ended before the image did (a truncated file, or a header declaring more
 * than the file holds), which throws at once instead of decoding megapixels of nothing.
 */
export class BitReader {
  /** Up to 24 bits not yet taken, the oldest highest. */
  private buffer = 0;
  private count = 0;
  /** Made-up zero bits at the bottom of the buffer (read past a marker). */
  private padding = 0;

  constructor(
    private readonly data: Uint8Array,
    /** Next byte to read; after a scan, at or before the marker that ends it. */
    public offset: number,
  ) {}

  /** The next `n` bits (1-16) without taking them. */
  peek(n: number): number {
    if (this.count < n) this.fill();
    return (this.buffer >>> (this.count - n)) & ((1 << n) - 1);
  }

  skip(n: number): void {
    this.count -= n;
    if (this.count < this.padding) throw new RangeError('the JPEG data ends before its image does');
  }

  bits(n: number): number {
    const value = this.peek(n);
    this.skip(n);
    return value;
  }

  /** Byte-aligns at a restart interval's end (T.81 §E.1.4): the next marker must be RSTn. */
  restart(n: number): void {
    this.buffer = this.count = this.padding = 0;
    const at = nextMarkerOffset(this.data, this.offset);
    if (at < 0 || this.data[at + 1] !== 0xd0 + n) throw new RangeError(`JPEG restart marker RST${n} missing`);
    this.offset = at + 2;
  }

  private fill(): void {
    while (this.count <= 16) {
      const byte = this.nextByte();
      this.buffer = ((this.buffer << 8) | (byte ?? 0)) & 0xffffff;
      this.count += 8;
      if (byte === undefined) this.padding += 8;
    }
  }

  /** The next data byte; undefined at a marker (left in place) or the end of the file. */
  private nextByte(): number | undefined {
    if (this.offset >= this.data.length) return undefined;
    const byte = this.data[this.offset];
    if (byte !== 0xff) {
      this.offset++;
      return byte;
    }
    if (this.data[this.offset + 1] !== 0x00) return undefined;
    this.offset += 2;
    return 0xff;
  }
}

/**
 * Offset of the next marker at or after `from` (0xFF then a byte other than 0x00 and 0xFF: T.81 §B.1.1.2 allows fill
 * bytes before a marker), skipping stuffed bytes and any entropy data not read; -1 if there is none.
 */
export function nextMarkerOffset(data: Uint8Array, from: number): number {
  for (let at = from; at + 1 < data.length; at++) {
    if (data[at] === 0xff && data[at + 1] !== 0x00 && data[at + 1] !== 0xff) return at;
  }
  return -1;
}
