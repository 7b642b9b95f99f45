import type { FaceDetection, PresentationScores, RgbImage } from '../types.js';
import { cropFace, presentationCropBox } from './crop-face.js';
import { loadPresentationModels } from './load-presentation-models.js';

/** Human crops faces to its face-mesh input (192 px) and resizes that crop again for each model. */
const CROP_SIDE = 192;

/**
 * Anti-spoofing and liveness scores of one detected face, both in [0, 1], higher = more likely a live face. The crop
 * and its normalisation follow Human (src/face/facemesh.ts, antispoof.ts, liveness.ts): the enlarged square face box
 * at 192 px, RGB / 255, bilinear-resized to 128 px (antispoof) and 32 px (liveness).
 */
export async function scorePresentation(image: RgbImage, detection: FaceDetection): Promise<PresentationScores> {
  const { tf, antispoof, liveness } = await loadPresentationModels();
  const crop = tf.tensor4d(cropFace(image, presentationCropBox(detection), CROP_SIDE), [1, CROP_SIDE, CROP_SIDE, 3]);
  try {
    const [real, live] = tf.tidy(() => [
      antispoof.execute(tf.image.resizeBilinear(crop, [128, 128])) as ReturnType<typeof tf.tensor>,
      liveness.execute(tf.image.resizeBilinear(crop, [32, 32])) as ReturnType<typeof tf.tensor>,
    ]);
    try {
      const [a, l] = await Promise.all([real.data(), live.data()]);
      return { antispoof: a[0], liveness: l[0] };
    } finally {
      real.dispose();
      live.dispose();
    }
  } finally {
    crop.dispose();
  }
}
