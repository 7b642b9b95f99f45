import { crc32, deflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import { decodeImage } from '@identity-broker/face';

/**
 * Oversized face images for the memory and limit tests and `npm run bench:face-memory`: a small face picture
 * scaled up (nearest neighbour) to the height of a phone frame of `width` x `height`, centred on grey, as RGBA.
 */
async function upscaledRgba(image: Uint8Array, width: number, height: number): Promise<Buffer> {
  const face = await decodeImage(image);
  const scale = height / face.height;
  const left = Math.round((width - face.width * scale) / 2);
  const rgba = Buffer.alloc(width * height * 4, 0x80);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(face.height - 1, Math.floor(y / scale));
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      rgba[o + 3] = 255;
      const sx = Math.floor((x - left) / scale);
      if (sx < 0 || sx >= face.width) continue;
      const i = (sy * face.width + sx) * 3;
      rgba[o] = face.data[i];
      rgba[o + 1] = face.data[i + 1];
      rgba[o + 2] = face.data[i + 2];
    }
  }
  return rgba;
}

/** A phone-sized JPEG frame of the face (12 MP: 4000x3000). */
export async function upscaledJpeg(image: Uint8Array, width = 4000, height = 3000, quality = 70): Promise<Uint8Array> {
  return new Uint8Array(jpeg.encode({ width, height, data: await upscaledRgba(image, width, height) }, quality).data);
}

/**
 * A PNG frame of the face (16 MP: 4608x3456), 8-bit RGB, rows unfiltered; the flat picture deflates to a few hundred
 * KB. Written here rather than by pngjs, whose encoder takes minutes for 16 MP in jest's module sandbox.
 */
export async function upscaledPng(image: Uint8Array, width = 4608, height = 3456): Promise<Uint8Array> {
  const rgba = await upscaledRgba(image, width, height);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0, o = 0; y < height; y++) {
    raw[o++] = 0; // filter: none
    for (let i = y * width * 4; i < (y + 1) * width * 4; i += 4) {
      raw[o++] = rgba[i];
      raw[o++] = rgba[i + 1];
      raw[o++] = rgba[i + 2];
    }
  }
  return rgbPng(width, height, raw);
}

/**
 * A decompression bomb: a valid 8-bit RGB PNG declaring width x height whose IDAT is the deflated all-zero
 * picture (a few hundred KB for 6000x6000, 108 MB once inflated, gigabytes once turned into tensors).
 */
export function pngBomb(width: number, height: number, interlace: 0 | 1 = 0): Uint8Array {
  return rgbPng(width, height, Buffer.alloc((width * 3 + 1) * height), interlace);
}

/** An 8-bit RGB PNG of the filtered scanlines `raw` (deflate, adaptive filtering; Adam7 when `interlace` is 1). */
function rgbPng(width: number, height: number, raw: Buffer, interlace: 0 | 1 = 0): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, interlace], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([signature, pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw, { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]),
  );
}

/** PNG chunk (PNG spec §5.3): length, type, data, CRC-32 of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid small JPEG whose frame header (SOF0) is rewritten to declare width x height: a kilobyte asking for megapixels. */
export function jpegDeclaring(width: number, height: number): Uint8Array {
  const rgba = Buffer.alloc(32 * 24 * 4);
  for (let i = 0; i < 32 * 24; i++) rgba.set([(i * 7) & 255, (i * 13) & 255, (i * 29) & 255, 255], i * 4);
  const bytes = Buffer.from(jpeg.encode({ width: 32, height: 24, data: rgba }, 90).data);
  const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
  bytes.writeUInt16BE(height, sof + 5);
  bytes.writeUInt16BE(width, sof + 7);
  return new Uint8Array(bytes);
}
