import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { decodeImage, decodeImageToFit, type RgbImage } from '@identity-broker/face';
import { decodeJpeg } from './decode-jpeg.js';
import { jpegDeclaring, upscaledJpeg } from '../../../../test/support/oversized-images.js';
import { gradientImage } from '../../test/helpers/synthetic-images.js';
import { mulberry32 } from '../../../../test/support/seeded-random.js';

const fixture = (path: string) => new Uint8Array(readFileSync(join(import.meta.dirname, '../../../../test/fixtures', path)));
const PROGRESSIVE = fixture('jpeg/progressive-420.jpg');
/** Baseline, 4:2:0, a restart interval of 10 MCUs: a chip photo from an ICAO test record. */
const RESTARTS = fixture('icao/dg2/EF_DG2_ISO19794-5_jpeg_gmrtd_expected_face.jpg');

function baseline444(image: RgbImage): Uint8Array {
  const rgba = Buffer.alloc(image.width * image.height * 4, 255);
  for (let i = 0; i < image.width * image.height; i++) rgba.set(image.data.subarray(i * 3, i * 3 + 3), i * 4);
  return new Uint8Array(jpeg.encode({ width: image.width, height: image.height, data: rgba }, 85).data);
}

/** Mean and largest difference per sample between two images of one size. */
function difference(a: RgbImage, b: RgbImage): { mean: number; max: number } {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let sum = 0;
  let max = 0;
  for (let i = 0; i < a.data.length; i++) {
    const d = Math.abs(a.data[i] - b.data[i]);
    sum += d;
    max = Math.max(max, d);
  }
  return { mean: sum / a.data.length, max };
}

/** Each `scale` x `scale` square averaged (the picture's last row and column partly), as a reference for scaled decoding. */
function boxAverage(image: RgbImage, scale: number): RgbImage {
  const width = Math.ceil(image.width / scale);
  const height = Math.ceil(image.height / scale);
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        let count = 0;
        for (let sy = y * scale; sy < Math.min(image.height, (y + 1) * scale); sy++)
          for (let sx = x * scale; sx < Math.min(image.width, (x + 1) * scale); sx++, count++) sum += image.data[(sy * image.width + sx) * 3 + c];
        data[(y * width + x) * 3 + c] = Math.round(sum / count);
      }
  return { width, height, data };
}

/**
 * A grey 16x8 baseline JPEG built by hand: quantization 8 everywhere, a DC table with codes 00 (size 0) and 01
 * (size 4), an AC table whose only code 0 is end-of-block; the two blocks hold DC differences +10 and -10, so they
 * decode flat at 128 + 10 and 128.
 */
function handmadeGrey(): Uint8Array {
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 255, ...body];
  const counts = (lengths: Record<number, number>) => Array.from({ length: 16 }, (_, i) => lengths[i + 1] ?? 0);
  return Uint8Array.from([
    0xff,
    0xd8,
    ...segment(0xdb, [0x00, ...new Array(64).fill(8)]),
    ...segment(0xc0, [8, 0, 8, 0, 16, 1, 1, 0x11, 0]),
    ...segment(0xc4, [0x00, ...counts({ 2: 2 }), 0x00, 0x04]),
    ...segment(0xc4, [0x10, ...counts({ 1: 1 }), 0x00]),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    // 01 1010 0 | 01 0101 0 | 11 (padding): +10, end of block; -10, end of block
    0x68,
    0xab,
    0xff,
    0xd9,
  ]);
}

/** The grey 16x8 picture as a progressive JPEG of `scans` DC scans, each two blocks of DC difference 0 (code 0). */
function progressiveGrey(scans: number): Uint8Array {
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 255, ...body];
  const dcScan = [...segment(0xda, [1, 1, 0x00, 0, 0, 0]), 0x3f]; // 0 0 | 111111 (padding)
  return Uint8Array.from([
    0xff,
    0xd8,
    ...segment(0xdb, [0x00, ...new Array(64).fill(8)]),
    ...segment(0xc2, [8, 0, 8, 0, 16, 1, 1, 0x11, 0]),
    ...segment(0xc4, [0x00, 1, ...new Array(15).fill(0), 0x00]),
    ...Array.from({ length: scans }, () => dcScan).flat(),
    0xff,
    0xd9,
  ]);
}

describe('JPEG decoder', () => {
  it('decodes baseline 4:4:4, baseline 4:2:0 with restart intervals and progressive JPEGs as jpeg-js does, within rounding', () => {
    for (const bytes of [baseline444(gradientImage(61, 37)), RESTARTS, PROGRESSIVE]) {
      const reference = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: false });
      const { mean, max } = difference(decodeJpeg(bytes), { width: reference.width, height: reference.height, data: reference.data });
      // jpeg-js truncates where we round, and its integer IDCT differs from ours in the last bit.
      expect(max).toBeLessThanOrEqual(4);
      expect(mean).toBeLessThan(1);
    }
  });

  it("decodes at 1/2, 1/4 and 1/8 scale to libjpeg's sizes, as the full picture averaged over squares", () => {
    for (const bytes of [PROGRESSIVE, RESTARTS]) {
      const full = decodeJpeg(bytes);
      for (const scale of [2, 4, 8] as const) {
        const scaled = decodeJpeg(bytes, scale);
        expect([scaled.width, scaled.height]).toEqual([Math.ceil(full.width / scale), Math.ceil(full.height / scale)]);
        // Averaged before the colour conversion and its rounding; a last row or column of squares the picture ends
        // inside also averages the encoder's padding.
        const { mean, max } = difference(scaled, boxAverage(full, scale));
        expect(mean).toBeLessThan(0.4);
        expect(max).toBeLessThanOrEqual(16);
      }
    }
  });

  it('decodes a grey JPEG, and each block at 1/8 scale to its mean', () => {
    const grey = decodeJpeg(handmadeGrey());
    expect([grey.width, grey.height]).toEqual([16, 8]);
    expect([...grey.data.subarray(0, 3), ...grey.data.subarray(8 * 3, 8 * 3 + 3), ...grey.data.subarray((7 * 16 + 15) * 3)]).toEqual([
      138, 138, 138, 128, 128, 128, 128, 128, 128,
    ]);
    expect([...decodeJpeg(handmadeGrey(), 8).data]).toEqual([138, 138, 138, 128, 128, 128]);
  });

  it('refuses data that ends before the image does, and the processes and formats it does not decode', () => {
    const scan = Buffer.from(RESTARTS).indexOf(Buffer.from([0xff, 0xda]));
    expect(() => decodeJpeg(RESTARTS.subarray(0, Math.round((scan + RESTARTS.length) / 2)))).toThrow(/ends before its image does/);
    const withFrame = (marker: number, edit?: (frame: Buffer) => void) => {
      const bytes = Buffer.from(RESTARTS);
      const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
      bytes[sof + 1] = marker;
      edit?.(bytes.subarray(sof + 4));
      return new Uint8Array(bytes);
    };
    expect(() => decodeJpeg(withFrame(0xc9))).toThrow(/not supported/); // arithmetic coding
    expect(() => decodeJpeg(withFrame(0xc3))).toThrow(/not supported/); // lossless
    expect(() => decodeJpeg(withFrame(0xc0, (frame) => (frame[0] = 12)))).toThrow(/12-bit JPEG is not supported/);
    expect(() => decodeJpeg(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toThrow(/no image data/);
  });

  it('refuses a JPEG of more scans than an encoder writes (each walks every block it covers) before decoding them all', () => {
    expect([...decodeJpeg(progressiveGrey(64), 8).data]).toEqual([128, 128, 128, 128, 128, 128]);
    expect(() => decodeJpeg(progressiveGrey(65))).toThrow(/more than 64 scans/);
    expect(() => decodeJpeg(progressiveGrey(20_000))).toThrow(/more than 64 scans/);
  });

  it('refuses a kilobyte JPEG declaring 12 MP as soon as its data runs out', async () => {
    const declaring = jpegDeclaring(4000, 3000);
    expect(declaring.length).toBeLessThan(2000);
    // jpeg-js spent about a second on it: it decodes every block of the declared size from a stream of zeros. Ours
    // stops at the first bit read past the data (BitReader.skip), whatever size the header declares.
    await expect(decodeImage(declaring)).rejects.toMatchObject({ code: 'BAD_IMAGE', message: expect.stringMatching(/ends before its image does/) });
    await expect(decodeImageToFit(declaring, 1024)).rejects.toMatchObject({ code: 'BAD_IMAGE' });
  });

  it('decodes a 12 MP JPEG for analysis straight to 1000x750 at quarter scale in the DCT domain: never in full', async () => {
    const frame = await upscaledJpeg(fixture('verifier-faces/sheldon-center.png'));
    const fitted = await decodeImageToFit(frame, 1024);
    expect([fitted.image.width, fitted.image.height, fitted.scaleX, fitted.scaleY]).toEqual([1000, 750, 4, 4]);
    // Exactly the quarter-scale decode: each pixel the mean of a 4x4 square of the full picture.
    expect(Buffer.from(fitted.image.data).equals(Buffer.from(decodeJpeg(frame, 4).data))).toBe(true);
    // Smaller than 1024 by 2% rather than twice as large: 2000 px would be decoded at half scale.
    expect([(await decodeImageToFit(frame, 1100)).image.width, (await decodeImageToFit(frame, 2000)).image.width]).toEqual([1000, 2000]);
  }, 60_000);
  it('takes corrupted JPEGs (bytes flipped anywhere, segments cut) without hanging: an image or a RangeError, never another error', () => {
    const random = mulberry32(23);
    const sources = [RESTARTS, PROGRESSIVE, handmadeGrey()];
    const outcomes = { decoded: 0, refused: 0 };
    for (let round = 0; round < 600; round++) {
      const bytes = Uint8Array.from(sources[round % sources.length]);
      const flips = 1 + Math.floor(random() * 8);
      for (let i = 0; i < flips; i++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      const corrupted = round % 5 === 0 ? bytes.subarray(0, Math.floor(random() * bytes.length)) : bytes;
      try {
        const image = decodeJpeg(corrupted, ([1, 2, 4, 8] as const)[round % 4]);
        expect(image.data.length).toBe(image.width * image.height * 3);
        outcomes.decoded++;
      } catch (error) {
        // A RangeError names what is wrong with the data; a TypeError or a hang would be a decoder defect.
        if (!(error instanceof RangeError)) throw new Error(`round ${round}: ${String(error)}`);
        outcomes.refused++;
      }
    }
    expect(outcomes.decoded).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 120_000);
});
