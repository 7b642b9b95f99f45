import { FaceError } from '../errors.js';
import type { FaceImageInput, RgbImage } from '../types.js';
import { decodeJpeg, type JpegScale } from './decode-jpeg.js';
import { decodeJpeg2000 } from './decode-jpeg2000.js';
import { assertDecodableSize, readDecodableHeader } from './decode-limits.js';
import { decodePng } from './decode-png.js';
import { downscaleToFit, type ScaledImage } from './downscale-image.js';
import type { ImageHeader } from './read-image-header.js';

/**
 * Decodes JPEG, PNG or JPEG 2000 (JP2 or raw codestream) to RGB at its full size; anything else is FaceError BAD_IMAGE.
 * The header is judged first (FaceError TOO_LARGE or BAD_IMAGE, decode-limits.ts), so an image is refused before any
 * decoding; each decoder is then bounded by the declared size, so a header that lies cannot make it allocate more.
 */
export async function decodeImage(bytes: Uint8Array): Promise<RgbImage> {
  const header = readDecodableHeader(bytes);
  return decodeAs(bytes, header, 1);
}

/**
 * The image scaled to at most `maxSide` pixels on its longer side, with the factors from its declared size (what
 * face analysis works on). A larger JPEG is decoded at the largest DCT scale (1/2, 1/4, 1/8) that keeps at least
 * 90% of `maxSide`, so a 12 MP frame is decoded straight to 1000x750, a whole 4x4 square per pixel, and never
 * exists at its full size; other formats are decoded in full (their ceilings are lower). What is still larger than
 * `maxSide` is averaged down to it. Errors as decodeImage.
 */
export async function decodeImageToFit(bytes: Uint8Array, maxSide: number): Promise<ScaledImage> {
  const header = readDecodableHeader(bytes);
  const decoded = await decodeAs(bytes, header, header.format === 'jpeg' ? jpegScaleFor(header, maxSide) : 1);
  const { image } = downscaleToFit(decoded, maxSide);
  return { image, scaleX: header.width / image.width, scaleY: header.height / image.height };
}

/** An input as face analysis takes it: encoded bytes by decodeImageToFit, decoded pixels checked and scaled down. */
export async function toAnalysisImage(input: FaceImageInput, maxSide: number): Promise<ScaledImage> {
  if (input instanceof Uint8Array) return decodeImageToFit(input, maxSide);
  return downscaleToFit(await toRgbImage(input), maxSide);
}

export async function toRgbImage(input: FaceImageInput): Promise<RgbImage> {
  if (input instanceof Uint8Array) return decodeImage(input);
  if (input.data.length !== input.width * input.height * 3) {
    throw new FaceError('BAD_IMAGE', 'RGB buffer size does not match width x height x 3');
  }
  assertDecodableSize('RGB', input.width, input.height);
  return input;
}

/**
 * A DCT-scaled JPEG may come out this much smaller than the analysis size rather than twice as large: 4000 px at
 * 1/4 is 1000, every pixel the mean of a whole 4x4 square, where 1/2 and an average by 1.95 would mix squares of 1
 * and 2 pixels (uneven, and it moved the passive presentation score of a test frame by 0.2 against a full decode).
 */
const DCT_FIT = 0.9;

/** The largest reduction that keeps at least DCT_FIT of `maxSide` on the longer side (1 when the image fits). */
function jpegScaleFor(header: ImageHeader, maxSide: number): JpegScale {
  const longest = Math.max(header.width, header.height);
  for (const scale of [8, 4, 2] as const) if (Math.ceil(longest / scale) >= DCT_FIT * maxSide) return scale;
  return 1;
}

async function decodeAs(bytes: Uint8Array, header: ImageHeader, jpegScale: JpegScale): Promise<RgbImage> {
  const { format } = header;
  let image: RgbImage;
  try {
    if (format === 'jpeg') image = decodeJpeg(bytes, jpegScale);
    else if (format === 'png') image = decodePng(bytes, header);
    else image = await decodeJpeg2000(bytes);
  } catch (error) {
    if (error instanceof FaceError) throw error;
    throw new FaceError('BAD_IMAGE', `cannot decode ${format} image: ${(error as Error).message}`, { cause: error });
  }
  const [width, height] = [header.width, header.height].map((side) => Math.ceil(side / jpegScale));
  if (image.width !== width || image.height !== height) {
    throw new FaceError('BAD_IMAGE', `${format} image decodes to ${image.width}x${image.height}, not the ${width}x${height} its header gives`);
  }
  return image;
}
