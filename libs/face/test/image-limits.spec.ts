import { deflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { FaceError, decodeImage, toRgbImage, assertDecodableSize, MAX_IMAGE_PIXELS, downscaleToFit, readImageHeader } from '@identity-broker/face';
import { jpegDeclaring } from '../../../test/support/oversized-images.js';
import { encodeJ2k, wrapJp2 } from './helpers/encode-jpeg2000.js';
import { gradientImage, uniformImage } from './helpers/synthetic-images.js';

const source = gradientImage(64, 48);
const rgba = (image: typeof source) => {
  const out = Buffer.alloc(image.width * image.height * 4, 255);
  for (let i = 0; i < image.width * image.height; i++) out.set(image.data.subarray(i * 3, i * 3 + 3), i * 4);
  return out;
};
const pngOf = (image: typeof source) => {
  const png = new PNG({ width: image.width, height: image.height });
  rgba(image).copy(png.data);
  return new Uint8Array(PNG.sync.write(png));
};
const jpegOf = (image: typeof source) => new Uint8Array(jpeg.encode({ width: image.width, height: image.height, data: rgba(image) }, 90).data);

async function faceError(promise: Promise<unknown>): Promise<FaceError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof FaceError) return e;
    throw e;
  }
  throw new Error('expected a FaceError');
}

/** Rewrites a PNG's IHDR (and its CRC) to declare other dimensions or interlacing. */
function withIhdr(png: Uint8Array, width: number, height: number, interlace?: number): Uint8Array {
  const out = Buffer.from(png);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  if (interlace !== undefined) out[28] = interlace;
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return new Uint8Array(out);
}

/** Replaces the IDAT chunk of a PNG by one holding `data`. */
function withIdat(png: Uint8Array, data: Buffer): Uint8Array {
  const buffer = Buffer.from(png);
  const at = buffer.indexOf('IDAT', 0, 'latin1') - 4;
  const end = at + 12 + buffer.readUInt32BE(at);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('IDAT', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return new Uint8Array(Buffer.concat([buffer.subarray(0, at), chunk, buffer.subarray(end)]));
}

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

describe('image size limits (decompression bombs)', () => {
  it('reads the declared size of PNG, JPEG, JPEG 2000 and JP2 from the header alone', async () => {
    expect(readImageHeader(pngOf(source))).toMatchObject({ format: 'png', width: 64, height: 48, interlaced: false });
    expect(readImageHeader(jpegOf(source))).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
    const codestream = await encodeJ2k(source);
    expect(readImageHeader(codestream)).toMatchObject({ format: 'j2k', width: 64, height: 48 });
    expect(readImageHeader(wrapJp2(codestream, 64, 48))).toMatchObject({ format: 'jp2', width: 64, height: 48 });
  });

  it('refuses by declared dimensions before decoding: PNG IHDR, JPEG SOF, JPEG 2000 SIZ', async () => {
    const png = await faceError(decodeImage(withIhdr(pngOf(source), 6000, 6000)));
    expect([png.code, png.message]).toEqual(['TOO_LARGE', expect.stringContaining('6000x6000')]);

    const jpg = Buffer.from(jpegOf(source));
    const sof = jpg.indexOf(Buffer.from([0xff, 0xc0]));
    jpg.writeUInt16BE(6000, sof + 5);
    jpg.writeUInt16BE(6000, sof + 7);
    expect((await faceError(decodeImage(new Uint8Array(jpg)))).code).toBe('TOO_LARGE');

    const j2k = Buffer.from(await encodeJ2k(source));
    j2k.writeUInt32BE(6000, 8); // Xsiz
    j2k.writeUInt32BE(6000, 12); // Ysiz
    expect((await faceError(decodeImage(new Uint8Array(j2k)))).code).toBe('TOO_LARGE');

    const strip = await faceError(decodeImage(withIhdr(pngOf(source), 16_000, 10)));
    expect(strip.code).toBe('TOO_LARGE');
    expect((await faceError(toRgbImage({ width: 5000, height: 4000, data: new Uint8Array(0) }))).code).toBe('BAD_IMAGE');
  });

  it('takes a phone frame of 12 MP as JPEG by its header, but PNG only up to 4 MP and JPEG 2000 up to 1 MP', async () => {
    const jpegOfSize = (width: number, height: number) => {
      const bytes = Buffer.from(jpegOf(source));
      const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
      bytes.writeUInt16BE(height, sof + 5);
      bytes.writeUInt16BE(width, sof + 7);
      return new Uint8Array(bytes);
    };
    const j2kOfSize = async (width: number, height: number) => {
      const j2k = Buffer.from(await encodeJ2k(source));
      j2k.writeUInt32BE(width, 8);
      j2k.writeUInt32BE(height, 12);
      return new Uint8Array(j2k);
    };
    const sizeError = async (bytes: Uint8Array) => {
      const header = readImageHeader(bytes);
      try {
        assertDecodableSize(header.format, header.width, header.height);
        return 'accepted';
      } catch (e) {
        return (e as FaceError).code;
      }
    };
    for (const [width, height] of [
      [4000, 3000],
      [4032, 3024],
      [4080, 3060],
    ])
      expect(await sizeError(jpegOfSize(width, height))).toBe('accepted');
    expect(await sizeError(jpegOfSize(4608, 3456))).toBe('TOO_LARGE');
    expect(await sizeError(withIhdr(pngOf(source), 2048, 2048))).toBe('accepted');
    expect(await sizeError(withIhdr(pngOf(source), 4608, 3456))).toBe('TOO_LARGE');
    expect(await sizeError(withIhdr(pngOf(source), 2400, 1800))).toBe('TOO_LARGE');
    expect(await sizeError(await j2kOfSize(800, 1000))).toBe('accepted');
    expect(await sizeError(await j2kOfSize(1200, 1600))).toBe('TOO_LARGE');
    expect(MAX_IMAGE_PIXELS).toEqual({ jpeg: 12_500_000, png: 4_194_304, jp2: 1_048_576, j2k: 1_048_576 });
  });

  it('refuses a kilobyte JPEG declaring 4000x4000 by its header (TOO_LARGE), decoding nothing', async () => {
    const declaring = jpegDeclaring(4000, 4000);
    expect(declaring.length).toBeLessThan(2000);
    // Decoded, it cost about a second of CPU and 127 MiB before it was refused (jpeg-js, every block of the declared
    // size); TOO_LARGE comes from the header check, before any decoder runs.
    const error = await faceError(decodeImage(declaring));
    expect([error.code, error.message]).toEqual(['TOO_LARGE', expect.stringContaining('4000x4000')]);
  });

  it('bounds a header that lies: small declared size, huge compressed stream (interlaced and not)', async () => {
    const bomb = deflateSync(Buffer.alloc(200 * 1024 * 1024), { level: 9 }); // 200 MB inflated, ~200 KB here
    for (const interlace of [0, 1]) {
      const lying = withIdat(withIhdr(pngOf(source), 64, 48, interlace), bomb);
      const before = process.memoryUsage().rss;
      const error = await faceError(decodeImage(lying));
      expect(error.code).toBe('BAD_IMAGE');
      expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    }
  });

  it('refuses a JP2 whose ihdr box disagrees with its codestream', async () => {
    const jp2 = wrapJp2(await encodeJ2k(source), 32, 24);
    const error = await faceError(decodeImage(jp2));
    expect([error.code, error.message]).toEqual(['BAD_IMAGE', expect.stringContaining('disagree')]);
  });
});

describe('downscaleToFit', () => {
  it('scales a 12 MP frame to a 1024 longest side by area average, keeping the aspect ratio', () => {
    const big = uniformImage(4000, 3000, 90);
    big.data[0] = 255; // one bright pixel among the ~15 averaged into the first output pixel
    const { image, scaleX, scaleY } = downscaleToFit(big, 1024);
    expect([image.width, image.height]).toEqual([1024, 768]);
    expect([scaleX, scaleY].map((s) => s.toFixed(3))).toEqual(['3.906', '3.906']);
    expect(image.data[0]).toBeGreaterThan(90);
    expect(image.data[0]).toBeLessThan(110);
    expect(image.data[3 * 500]).toBe(90);
  });

  it('returns an image that already fits unchanged (chip photos keep their detail)', () => {
    expect(downscaleToFit(source, 1024)).toEqual({ image: source, scaleX: 1, scaleY: 1 });
  });
});
