import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { decodeImage, downscaleToFit, readImageHeader, type RgbImage } from '@identity-broker/face';

/** Photos in the PDF are printed about 5 cm wide: 600 pixels is more than 300 dpi there. */
const PDF_PHOTO_MAX_SIDE = 600;
/** A JPEG up to this size goes into the PDF as it is (metadata removed): decoding and re-encoding it in JavaScript cost ten times the whole report. */
const PDF_JPEG_AS_IS_MAX_SIDE = 1280;

/**
 * The stored picture as PNG (spec 4.8 `image/png`): the DG2 photo (JPEG or JPEG 2000) or the selfie frame,
 * decoded with the face library's bounded decoders (size checked from the header before any decoding) and
 * written losslessly at its own size.
 */
export async function photoAsPng(bytes: Uint8Array): Promise<Buffer> {
  return encodePng(await decodeImage(bytes));
}

/**
 * The picture as pdfkit embeds it best: a JPEG up to 1280 pixels a side as it is, without its metadata segments
 * (a phone's Exif may hold the place and the device; pdfkit copies a JPEG into the PDF without decoding it);
 * anything else (JPEG 2000, which PDF/A-1 forbids, PNG frames, larger frames) decoded, scaled to print size and
 * written as JPEG.
 */
export async function photoForPdf(bytes: Uint8Array): Promise<Buffer> {
  const header = readImageHeader(bytes);
  if (header.format === 'jpeg' && Math.max(header.width, header.height) <= PDF_JPEG_AS_IS_MAX_SIDE) {
    const bare = jpegWithoutMetadata(bytes);
    if (bare) return bare;
  }
  const { image } = downscaleToFit(await decodeImage(bytes), PDF_PHOTO_MAX_SIDE);
  return Buffer.from(jpeg.encode({ width: image.width, height: image.height, data: rgba(image) }, 90).data);
}

/**
 * The JPEG without the segments that carry metadata rather than the picture: APP1–APP13 and APP15 (Exif, XMP,
 * ICC-less vendor data, IPTC) and comments. APP0 (JFIF) and APP14 (Adobe: the colour transform) stay, as does
 * everything from the start of scan on. Undefined when the marker structure is not what it should be (the
 * caller then decodes and re-encodes).
 */
export function jpegWithoutMetadata(bytes: Uint8Array): Buffer | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xda) return Buffer.concat([...kept, bytes.subarray(at)]); // start of scan: the rest is the picture
    if (marker === 0xd9 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) return undefined; // no picture before SOS
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    if (length < 2 || at + 2 + length > bytes.length) return undefined;
    const metadata = (marker >= 0xe1 && marker <= 0xed) || marker === 0xef || marker === 0xfe;
    if (!metadata) kept.push(bytes.subarray(at, at + 2 + length));
    at += 2 + length;
  }
  return undefined;
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
