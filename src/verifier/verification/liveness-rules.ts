/**
 * Liveness by challenge and response: the app is given a random order of head poses and must return one
 * frame per pose, in order, soon after the challenge. A replayed video or photo cannot know the order;
 * a printed photo cannot turn. The frames must show one and the same face.
 *
 * Poses use the face engine's yaw convention (degrees; positive = the subject turned to their own left).
 */
export type Pose = 'left' | 'center' | 'right';

export const POSE_RULES = {
  /** A turn must reach this yaw in the asked direction. */
  minTurnYaw: 12,
  /** "center" means looking at the camera within this yaw. */
  maxCenterYaw: 10,
};

export interface FrameObservation {
  pose: Pose;
  yaw: number;
  /** Same-person score of this frame against the first frame, in the engine's metric. */
  sameFaceScore: number;
}

export interface LivenessVerdict {
  passed: boolean;
  problems: string[];
}

export function poseMatches(pose: Pose, yaw: number): boolean {
  if (pose === 'center') return Math.abs(yaw) <= POSE_RULES.maxCenterYaw;
  return pose === 'left' ? yaw >= POSE_RULES.minTurnYaw : yaw <= -POSE_RULES.minTurnYaw;
}

/** `isSameFace(score)` says whether a score means the same person (the engine's lowest match level). */
export function judgeLiveness(sequence: Pose[], frames: FrameObservation[], isSameFace: (score: number) => boolean): LivenessVerdict {
  const problems: string[] = [];
  if (frames.length !== sequence.length) problems.push(`expected ${sequence.length} frames, got ${frames.length}`);
  sequence.forEach((pose, i) => {
    const frame = frames[i];
    if (!frame) return;
    if (frame.pose !== pose) problems.push(`frame ${i + 1} is labelled ${frame.pose}, the challenge asked ${pose}`);
    else if (!poseMatches(pose, frame.yaw)) problems.push(`frame ${i + 1} does not show the head ${pose === 'center' ? 'facing the camera' : `turned ${pose}`} (yaw ${frame.yaw.toFixed(1)}°)`);
    if (i > 0 && !isSameFace(frame.sameFaceScore)) problems.push(`frame ${i + 1} shows another face than frame 1`);
  });
  return { passed: problems.length === 0, problems };
}

/** A random challenge: one left and one right turn and a centre frame, in a random order. */
export function randomSequence(random: () => number = Math.random): Pose[] {
  const poses: Pose[] = ['left', 'center', 'right'];
  for (let i = poses.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [poses[i], poses[j]] = [poses[j], poses[i]];
  }
  return poses;
}
