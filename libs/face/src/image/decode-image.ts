import { FaceError } from '../errors.js';
import type { FaceImageInput, RgbImage } from '../types.js';
import { decodeJpeg } from './decode-jpeg.js';
import { decodeJpeg2000 } from './decode-jpeg2000.js';
import { decodePng } from './decode-png.js';
import { detectImageFormat } from './detect-image-format.js';

/** Decodes JPEG, PNG or JPEG 2000 (JP2 or raw codestream) to RGB; anything else is FaceError BAD_IMAGE. */
export async function decodeImage(bytes: Uint8Array): Promise<RgbImage> {
  const format = detectImageFormat(bytes);
  if (!format) throw new FaceError('BAD_IMAGE', 'unrecognised image format (expected JPEG, PNG or JPEG 2000)');
  let image: RgbImage;
  try {
    if (format === 'jpeg') image = decodeJpeg(bytes);
    else if (format === 'png') image = decodePng(bytes);
    else image = await decodeJpeg2000(bytes);
  } catch (error) {
    throw new FaceError('BAD_IMAGE', `cannot decode ${format} image: ${(error as Error).message}`, { cause: error });
  }
  if (image.width < 1 || image.height < 1) throw new FaceError('BAD_IMAGE', 'image has no pixels');
  return image;
}

export async function toRgbImage(input: FaceImageInput): Promise<RgbImage> {
  if (input instanceof Uint8Array) return decodeImage(input);
  if (input.data.length !== input.width * input.height * 3) {
    throw new FaceError('BAD_IMAGE', 'RGB buffer size does not match width x height x 3');
  }
  return input;
}
