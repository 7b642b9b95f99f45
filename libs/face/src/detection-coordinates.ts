import { estimateHeadPose } from './pose/estimate-head-pose.js';
import type { FaceDetection } from './types.js';

/** A detection made on a scaled-down copy, in the coordinates of the image it was scaled from (the pose recomputed there). */
export function toInputCoordinates(detection: FaceDetection, scaleX: number, scaleY: number): FaceDetection {
  if (scaleX === 1 && scaleY === 1) return detection;
  const landmarks = detection.landmarks.map((p) => ({ x: p.x * scaleX, y: p.y * scaleY }));
  const { box } = detection;
  return {
    ...detection,
    box: { x: box.x * scaleX, y: box.y * scaleY, width: box.width * scaleX, height: box.height * scaleY },
    landmarks,
    pose: estimateHeadPose(landmarks),
  };
}
