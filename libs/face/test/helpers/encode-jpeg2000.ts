import { createRequire } from 'node:module';
import type { RgbImage } from '@identity-broker/face';

interface J2kEncoder {
  getDecodedBuffer(info: object): Uint8Array;
  getEncodedBuffer(): Uint8Array;
  encode(): void;
  delete(): void;
}

const require = createRequire(import.meta.url);

/** Encodes an RGB image as a raw JPEG 2000 codestream (lossless) with the same codec the decoder uses. */
export async function encodeJ2k(image: RgbImage): Promise<Uint8Array> {
  const factory = require('@cornerstonejs/codec-openjpeg') as (o: object) => Promise<{ J2KEncoder: new () => J2kEncoder }>;
  const codec = await factory({ print: () => {}, printErr: () => {} });
  const encoder = new codec.J2KEncoder();
  try {
    const info = { width: image.width, height: image.height, bitsPerSample: 8, componentCount: 3, isSigned: false, isUsingColorTransform: false };
    encoder.getDecodedBuffer(info).set(image.data);
    encoder.encode();
    return Uint8Array.from(encoder.getEncodedBuffer());
  } finally {
    encoder.delete();
  }
}

/** Wraps a codestream in a minimal JP2 file (signature, ftyp, jp2h with ihdr + colr, jp2c), the layout ICAO DG2 uses. */
export function wrapJp2(codestream: Uint8Array, width: number, height: number): Uint8Array {
  const box = (type: string, ...parts: Uint8Array[]) => {
    const length = 8 + parts.reduce((sum, p) => sum + p.length, 0);
    const header = new Uint8Array(8);
    new DataView(header.buffer).setUint32(0, length);
    header.set(
      [...type].map((c) => c.charCodeAt(0)),
      4,
    );
    return concat(header, ...parts);
  };
  const bytes = (...values: number[]) => Uint8Array.from(values);
  const u32 = (v: number) => bytes((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
  const ascii = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));
  const ihdr = box('ihdr', u32(height), u32(width), bytes(0, 3, 7, 7, 0, 0));
  const colr = box('colr', bytes(1, 0, 0), u32(16)); // enumerated sRGB
  return concat(
    bytes(0, 0, 0, 12, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a),
    box('ftyp', ascii('jp2 '), u32(0), ascii('jp2 ')),
    box('jp2h', ihdr, colr),
    box('jp2c', codestream),
  );
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
