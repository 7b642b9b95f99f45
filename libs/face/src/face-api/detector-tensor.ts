import type { RgbImage } from '../types.js';
import type { FaceApi } from './load-face-api.js';

type Tensor3D = ReturnType<FaceApi['tf']['tensor3d']>;

/**
 * The image as the float32 tensor face-api's input handling would make of it, without its copies. face-api casts an
 * int32 image to float32 and, for SSD, pads it to a square with zeros below or to the right (`padToSquare`), each a
 * full copy in the thread's WASM heap beside the input: a 2000x1500 padded frame took 36 MB as int32, 36 MB more
 * cast, 12 MB of zeros and 48 MB squared, at once, and a WASM heap never shrinks. Given float32 (the same values)
 * and, for SSD (`square`), already square with the same zeros, the input is the only copy: SSD and the nets after
 * it see exactly the pixels they saw before, the zeros lie outside the image (boxes and landmarks unchanged).
 * The Tiny Face Detector pads to a square centred, so its tensor stays the image's own shape.
 */
export function detectorTensor(faceapi: FaceApi, image: RgbImage, square: boolean): Tensor3D {
  const side = square ? Math.max(image.width, image.height) : 0;
  const [width, height] = square ? [side, side] : [image.width, image.height];
  const pixels = new Float32Array(width * height * 3);
  const row = image.width * 3;
  for (let y = 0; y < image.height; y++) pixels.set(image.data.subarray(y * row, (y + 1) * row), y * width * 3);
  return faceapi.tf.tensor3d(pixels, [height, width, 3], 'float32');
}
