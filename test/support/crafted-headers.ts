import { crc32 } from 'node:zlib';
import jpeg from 'jpeg-js';

/** A flat grey JPEG from jpeg-js (baseline, 4:4:4): 12 MP of it is a few hundred KB, as a phone frame of a wall would be. */
export function flatJpeg(width: number, height: number, quality = 50): Uint8Array {
  return new Uint8Array(jpeg.encode({ width, height, data: Buffer.alloc(width * height * 4, 0x80) }, quality).data);
}

export interface FrameHeaderEdit {
  /** The start-of-frame marker (0xc0 baseline, 0xc2 progressive, 0xc3 lossless, 0xc9 arithmetic, ...). */
  sof?: number;
  precision?: number;
  width?: number;
  height?: number;
  /** Ci, Hi << 4 | Vi, Tqi per component (ITU-T T.81 §B.2.2). */
  components?: [number, number, number][];
}

/**
 * The JPEG with its frame header (the first SOFn segment) rewritten, everything else as it was: a valid file of
 * another process, depth or component count as far as its header says (the scans still hold what the encoder wrote).
 */
export function withFrameHeader(image: Uint8Array, edit: FrameHeaderEdit): Uint8Array {
  const bytes = Buffer.from(image);
  const at = sofOffset(bytes);
  const old = bytes.subarray(at + 4, at + 2 + bytes.readUInt16BE(at + 2));
  const components = edit.components ?? [...Array(old[5]).keys()].map((i) => [old[6 + 3 * i], old[7 + 3 * i], old[8 + 3 * i]] as [number, number, number]);
  const segment = Buffer.alloc(10 + 3 * components.length);
  segment.set([0xff, edit.sof ?? bytes[at + 1]]);
  segment.writeUInt16BE(8 + 3 * components.length, 2);
  segment[4] = edit.precision ?? old[0];
  segment.writeUInt16BE(edit.height ?? old.readUInt16BE(1), 5);
  segment.writeUInt16BE(edit.width ?? old.readUInt16BE(3), 7);
  segment[9] = components.length;
  components.forEach((c, i) => segment.set(c, 10 + 3 * i));
  return new Uint8Array(Buffer.concat([bytes.subarray(0, at), segment, bytes.subarray(at + 2 + old.length + 2)]));
}

/** Offset of the first start-of-frame marker, found by walking the segments (not by searching the bytes). */
export function sofOffset(bytes: Uint8Array): number {
  for (let at = 2; at + 4 <= bytes.length; at += 2 + ((bytes[at + 2] << 8) | bytes[at + 3])) {
    const marker = bytes[at + 1];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return at;
  }
  throw new Error('no frame header');
}

/** The PNG with bytes of its IHDR data (offset 0 = width) replaced and the chunk's CRC made right again, unless `keepCrc`. */
export function withIhdrBytes(png: Uint8Array, at: number, values: number[], keepCrc = false): Uint8Array {
  const bytes = Buffer.from(png);
  bytes.set(values, 16 + at);
  if (!keepCrc) bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return new Uint8Array(bytes);
}
