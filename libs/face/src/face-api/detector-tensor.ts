import type { RgbImage } from '../types.js';
import type { FaceApi } from './load-face-api.js';

type Tensor3D = ReturnType<FaceApi['tf']['tensor3d']>;

/**
 * The image as the float32 tensor face-api's input handling would cast it to, made once: given int32, face-api keeps
 * the int32 tensor and a float32 copy beside it in the thread's WASM heap. The Tiny Face Detector's input (the burst
 * frames, the light probe); SSD reads a DetectorFrame instead, which never makes the padded square.
 */
export function detectorTensor(faceapi: FaceApi, image: RgbImage): Tensor3D {
  return faceapi.tf.tensor3d(Float32Array.from(image.data), [image.height, image.width, 3], 'float32');
}
