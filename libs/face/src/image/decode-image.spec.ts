import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { FaceError, decodeImage, toRgbImage, detectImageFormat } from '@identity-broker/face';
import { extractJ2kCodestream } from './jp2-codestream.js';
import { encodeJ2k, wrapJp2 } from '../../test/helpers/encode-jpeg2000.js';
import { gradientImage, maxAbsDifference } from '../../test/helpers/synthetic-images.js';

const source = gradientImage(64, 48);

function rgba(image: typeof source): Buffer {
  const out = Buffer.alloc(image.width * image.height * 4);
  for (let i = 0; i < image.width * image.height; i++) {
    out[i * 4] = image.data[i * 3];
    out[i * 4 + 1] = image.data[i * 3 + 1];
    out[i * 4 + 2] = image.data[i * 3 + 2];
    out[i * 4 + 3] = 255;
  }
  return out;
}

describe('decodeImage', () => {
  it('decodes JPEG to RGB of the right size', async () => {
    const encoded = jpeg.encode({ width: source.width, height: source.height, data: rgba(source) }, 95).data;
    expect(detectImageFormat(encoded)).toBe('jpeg');
    const decoded = await decodeImage(encoded);
    expect([decoded.width, decoded.height, decoded.data.length]).toEqual([64, 48, 64 * 48 * 3]);
    expect(maxAbsDifference(decoded, source)).toBeLessThan(24); // lossy
  });

  it('decodes PNG exactly and composites transparency on white', async () => {
    const png = new PNG({ width: source.width, height: source.height });
    rgba(source).copy(png.data);
    png.data[3] = 0; // first pixel fully transparent
    const encoded = PNG.sync.write(png);
    expect(detectImageFormat(encoded)).toBe('png');
    const decoded = await decodeImage(encoded);
    expect(Array.from(decoded.data.subarray(0, 3))).toEqual([255, 255, 255]);
    expect(Array.from(decoded.data.subarray(3))).toEqual(Array.from(source.data.subarray(3)));
  });

  it('decodes a raw JPEG 2000 codestream and a JP2 file (DG2 style)', async () => {
    const codestream = await encodeJ2k(source);
    expect(detectImageFormat(codestream)).toBe('j2k');
    expect(Array.from((await decodeImage(codestream)).data)).toEqual(Array.from(source.data));

    const jp2 = wrapJp2(codestream, source.width, source.height);
    expect(detectImageFormat(jp2)).toBe('jp2');
    expect(extractJ2kCodestream(jp2)).toEqual(codestream);
    const decoded = await decodeImage(jp2);
    expect([decoded.width, decoded.height]).toEqual([64, 48]);
    expect(Array.from(decoded.data)).toEqual(Array.from(source.data));
  });

  it.each([
    ['garbage', Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])],
    ['empty', new Uint8Array(0)],
    ['WebP (unsupported)', Uint8Array.from(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))],
    ['truncated JPEG', Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10])],
    ['truncated PNG', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])],
    ['JP2 without codestream', Uint8Array.from([0, 0, 0, 12, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a])],
  ])('rejects %s with FaceError BAD_IMAGE', async (_name, bytes) => {
    await expect(decodeImage(bytes)).rejects.toMatchObject({ name: 'FaceError', code: 'BAD_IMAGE' });
  });

  it('rejects an RGB buffer whose size does not match its dimensions', async () => {
    await expect(toRgbImage({ width: 10, height: 10, data: new Uint8Array(5) })).rejects.toBeInstanceOf(FaceError);
  });
});
