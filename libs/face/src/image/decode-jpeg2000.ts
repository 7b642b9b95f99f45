import { createRequire } from 'node:module';
import type { RgbImage } from '../types.js';
import { extractJ2kCodestream } from './jp2-codestream.js';

interface J2kFrameInfo {
  width: number;
  height: number;
  bitsPerSample: number;
  componentCount: number;
  isSigned: boolean;
}

interface J2kDecoder {
  getEncodedBuffer(length: number): Uint8Array;
  getDecodedBuffer(): Uint8Array;
  readHeader(): void;
  decode(): void;
  getFrameInfo(): J2kFrameInfo;
  delete(): void;
}

interface OpenJpegModule {
  J2KDecoder: new () => J2kDecoder;
}

type OpenJpegFactory = (overrides?: object) => Promise<OpenJpegModule>;

const require = createRequire(import.meta.url);
let openJpeg: Promise<OpenJpegModule> | undefined;

/** The codec is an Emscripten wasm module: instantiate once and share it. */
function loadOpenJpeg(): Promise<OpenJpegModule> {
  openJpeg ??= (require('@cornerstonejs/codec-openjpeg') as OpenJpegFactory)({
    // The codec logs progress lines to stdout; keep service logs clean.
    print: () => {},
    printErr: () => {},
  });
  return openJpeg;
}

export async function decodeJpeg2000(bytes: Uint8Array): Promise<RgbImage> {
  const codestream = extractJ2kCodestream(bytes);
  const codec = await loadOpenJpeg();
  const decoder = new codec.J2KDecoder();
  try {
    decoder.getEncodedBuffer(codestream.length).set(codestream);
    // The SIZ marker was judged by decodeImage (readDecodableHeader): the codec decodes exactly that
    // area, and its getFrameInfo() stays empty until decode(), so there is nothing more to check here.
    decoder.decode();
    return toRgb(decoder.getFrameInfo(), decoder.getDecodedBuffer());
  } finally {
    decoder.delete();
  }
}

function toRgb(info: J2kFrameInfo, decoded: Uint8Array): RgbImage {
  const { width, height, componentCount, bitsPerSample, isSigned } = info;
  if (componentCount !== 1 && componentCount !== 3 && componentCount !== 4) {
    throw new RangeError(`unsupported JPEG 2000 component count ${componentCount}`);
  }
  const pixels = width * height;
  const samples = readSamples(decoded, pixels * componentCount, bitsPerSample, isSigned);
  const rgb = new Uint8Array(pixels * 3);
  for (let i = 0; i < pixels; i++) {
    for (let c = 0; c < 3; c++) {
      // Grey images replicate their one channel; a fourth (alpha) channel is dropped.
      rgb[i * 3 + c] = samples(i * componentCount + (componentCount === 1 ? 0 : c));
    }
  }
  return { width, height, data: rgb };
}

/** Reads interleaved samples scaled to 8 bits (the codec returns 16-bit little-endian words above 8 bits). */
function readSamples(decoded: Uint8Array, count: number, bits: number, signed: boolean): (index: number) => number {
  if (bits <= 8) {
    const offset = signed ? 128 : 0;
    const scale = 255 / ((1 << bits) - 1);
    return (index) => clampByte(((signed ? (decoded[index] << 24) >> 24 : decoded[index]) + offset) * scale);
  }
  const view = new DataView(decoded.buffer, decoded.byteOffset, count * 2);
  const max = (1 << bits) - 1;
  const offset = signed ? 1 << (bits - 1) : 0;
  return (index) => {
    const raw = signed ? view.getInt16(index * 2, true) : view.getUint16(index * 2, true);
    return clampByte(((raw + offset) / max) * 255);
  };
}

function clampByte(value: number): number {
  return value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
}
