import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { decodeImage } from '../../../libs/face/src/image/decode-image.js';
import { downscaleToFit } from '../../../libs/face/src/image/downscale-image.js';
import { readImageHeader } from '../../../libs/face/src/image/read-image-header.js';
import type { RgbImage } from '../../../libs/face/src/types.js';

/** Photos in the PDF are printed about 5 cm wide: 600 pixels is more than 300 dpi there. */
const PDF_PHOTO_MAX_SIDE = 600;

/**
 * The stored picture as PNG (spec 4.8 `image/png`): the DG2 photo (JPEG or JPEG 2000) or the selfie frame,
 * decoded with the face library's bounded decoders (size checked from the header before any decoding) and
 * written losslessly at its own size.
 */
export async function photoAsPng(bytes: Uint8Array): Promise<Buffer> {
  return encodePng(await decodeImage(bytes));
}

/**
 * The picture as pdfkit embeds it best: a small JPEG as it is (copied into the PDF without decoding); anything
 * else (JPEG 2000, which PDF/A-1 forbids, PNG frames, large phone frames) decoded, scaled to print size and
 * written as JPEG, which pdfkit embeds without re-compressing.
 */
export async function photoForPdf(bytes: Uint8Array): Promise<Buffer> {
  const header = readImageHeader(bytes);
  if (header.format === 'jpeg' && Math.max(header.width, header.height) <= PDF_PHOTO_MAX_SIDE) return Buffer.from(bytes);
  const { image } = downscaleToFit(await decodeImage(bytes), PDF_PHOTO_MAX_SIDE);
  return Buffer.from(jpeg.encode({ width: image.width, height: image.height, data: rgba(image) }, 90).data);
}

function encodePng(image: RgbImage): Buffer {
  const png = new PNG({ width: image.width, height: image.height, colorType: 2, inputColorType: 6, inputHasAlpha: true });
  png.data = Buffer.from(rgba(image));
  return PNG.sync.write(png, { colorType: 2, inputColorType: 6, inputHasAlpha: true });
}

function rgba(image: RgbImage): Uint8Array {
  const out = new Uint8Array(image.width * image.height * 4);
  for (let i = 0, j = 0; i < image.data.length; i += 3, j += 4) {
    out[j] = image.data[i];
    out[j + 1] = image.data[i + 1];
    out[j + 2] = image.data[i + 2];
    out[j + 3] = 255;
  }
  return out;
}
