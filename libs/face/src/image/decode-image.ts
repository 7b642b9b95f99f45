import { FaceError } from '../errors.js';
import type { FaceImageInput, RgbImage } from '../types.js';
import { decodeJpeg } from './decode-jpeg.js';
import { decodeJpeg2000 } from './decode-jpeg2000.js';
import { assertDecodableSize } from './decode-limits.js';
import { decodePng } from './decode-png.js';
import { readImageHeader } from './read-image-header.js';

/**
 * Decodes JPEG, PNG or JPEG 2000 (JP2 or raw codestream) to RGB; anything else is FaceError BAD_IMAGE.
 * The declared size is checked first (FaceError TOO_LARGE), so an image is refused before any decoding;
 * each decoder is then bounded by that same size, so a header that lies cannot make it allocate more.
 */
export async function decodeImage(bytes: Uint8Array): Promise<RgbImage> {
  const header = readImageHeader(bytes);
  const { format } = header;
  assertDecodableSize(format, header.width, header.height);
  let image: RgbImage;
  try {
    if (format === 'jpeg') image = decodeJpeg(bytes);
    else if (format === 'png') image = decodePng(bytes, header);
    else image = await decodeJpeg2000(bytes);
  } catch (error) {
    if (error instanceof FaceError) throw error;
    throw new FaceError('BAD_IMAGE', `cannot decode ${format} image: ${(error as Error).message}`, { cause: error });
  }
  if (image.width !== header.width || image.height !== header.height) {
    throw new FaceError('BAD_IMAGE', `${format} image decodes to ${image.width}x${image.height}, not the ${header.width}x${header.height} it declares`);
  }
  return image;
}

export async function toRgbImage(input: FaceImageInput): Promise<RgbImage> {
  if (input instanceof Uint8Array) return decodeImage(input);
  if (input.data.length !== input.width * input.height * 3) {
    throw new FaceError('BAD_IMAGE', 'RGB buffer size does not match width x height x 3');
  }
  assertDecodableSize('RGB', input.width, input.height);
  return input;
}
