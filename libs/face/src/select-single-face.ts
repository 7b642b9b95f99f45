import { FaceError } from './errors.js';
import type { FaceDetection } from './types.js';

/**
 * Picks the one face to embed from faces sorted largest first. Small background faces are
 * ignored (a bystander far behind a selfie), but a second face of comparable size is refused:
 * we cannot know which of two people the caller meant to verify.
 */
export function selectSingleFace<T>(faces: readonly T[], detectionOf: (face: T) => FaceDetection, secondaryFaceAreaRatio: number): T {
  if (faces.length === 0) throw new FaceError('NO_FACE', 'no face found in the image');
  const largestArea = boxArea(detectionOf(faces[0]));
  const comparable = faces.filter((face) => boxArea(detectionOf(face)) >= secondaryFaceAreaRatio * largestArea);
  if (comparable.length > 1) throw new FaceError('MULTIPLE_FACES', `${comparable.length} faces of similar size found in the image`);
  return faces[0];
}

function boxArea(detection: FaceDetection): number {
  return detection.box.width * detection.box.height;
}
