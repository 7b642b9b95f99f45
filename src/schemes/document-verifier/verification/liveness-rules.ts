import { randomInt } from 'node:crypto';
import type { HeadPose } from '@identity-broker/face';

/**
 * Liveness by active challenge: after one frame facing the camera, the app is given a server-drawn sequence of
 * head movements and must answer each with a short burst of frames in which the head moves towards the asked
 * pose. A replayed video cannot know the sequence; a still photo cannot move; every frame must show one face.
 *
 * Directions use the face engine's conventions (libs/face/src/pose/estimate-head-pose.ts; image as captured,
 * not a mirrored preview): yaw > 0 = the subject turned to their own left; roll > 0 = the head tilted
 * counter-clockwise as seen in the image, which is towards the subject's RIGHT shoulder.
 *
 * Pitch (up/down) is not drawn: the landmark fit reads frontal faces at -2° to -22° of pitch (median about
 * -12° over the 101 fixture faces, no nod images among them), so a nod of 10-15° is within the estimator's
 * spread, and the test app could not synthesise one. Roll is measured relative to the centre frame, since
 * people hold their head a few degrees tilted; yaw is absolute (the frontal reading is centred on 0).
 */
export const DIRECTIONS = ['left', 'right', 'tilt_left', 'tilt_right'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export const LIVENESS_RULES = {
  /** Movement steps per challenge (after the centre frame). */
  steps: 4,
  /** Frames per movement burst. */
  minBurstFrames: 2,
  maxBurstFrames: 4,
  /** A turn must reach this yaw in the asked direction. */
  minTurnYaw: 12,
  /** A tilt must reach this roll away from the centre frame's roll. */
  minTilt: 15,
  /** The centre frame looks at the camera within this yaw. */
  maxCenterYaw: 10,
  /** A burst must move at least this far (degrees) from its first frame to its last. */
  minBurstMovement: 6,
  /** Pose estimates jitter by a few degrees: a frame may fall back this much and still count as progress. */
  jitter: 2,
};

/** `steps` directions drawn with a CSPRNG, never the same twice in a row (4·3·3·3 = 108 sequences). */
export function randomDirections(steps = LIVENESS_RULES.steps, draw: (max: number) => number = randomInt): Direction[] {
  const out: Direction[] = [];
  while (out.length < steps) {
    const choices = DIRECTIONS.filter((d) => d !== out[out.length - 1]);
    out.push(choices[draw(choices.length)]);
  }
  return out;
}

/** How far (degrees) a pose has gone in the asked direction; `centre` is the pose of the centre frame. */
export function progress(direction: Direction, pose: HeadPose, centre: HeadPose): number {
  switch (direction) {
    case 'left':
      return pose.yaw;
    case 'right':
      return -pose.yaw;
    case 'tilt_right':
      return pose.roll - centre.roll;
    case 'tilt_left':
      return centre.roll - pose.roll;
  }
}

function target(direction: Direction): number {
  return direction === 'left' || direction === 'right' ? LIVENESS_RULES.minTurnYaw : LIVENESS_RULES.minTilt;
}

/** Why a burst does not answer its direction, or undefined when it does. */
export function judgeBurst(direction: Direction, poses: HeadPose[], centre: HeadPose): string | undefined {
  const { minBurstFrames, maxBurstFrames, minBurstMovement, jitter } = LIVENESS_RULES;
  if (poses.length < minBurstFrames || poses.length > maxBurstFrames) return `${poses.length} frames, expected ${minBurstFrames}-${maxBurstFrames}`;
  const p = poses.map((pose) => progress(direction, pose, centre));
  for (let i = 1; i < p.length; i++) if (p[i] < p[i - 1] - jitter) return `frame ${i + 1} moves away from ${direction} (${fmt(p)})`;
  if (p[p.length - 1] - p[0] < minBurstMovement) return `the head does not move towards ${direction} (${fmt(p)})`;
  if (p[p.length - 1] < target(direction)) return `the last frame does not reach ${direction} (${fmt(p)}, needs ${target(direction)}°)`;
  return undefined;
}

const fmt = (values: number[]) => values.map((v) => `${v.toFixed(1)}°`).join(' → ');

export interface LivenessObservation {
  directions: Direction[];
  centre: HeadPose;
  /** Poses of each burst, in the order of `directions`. */
  bursts: HeadPose[][];
  /** Frame pairs (labels) whose faces are not the same person at the engine's lowest level. */
  otherFaces: string[];
  /** Frame pairs that are the same picture, or one the mirror image of the other (frame-signatures). */
  stills: string[];
}

export interface LivenessVerdict {
  passed: boolean;
  problems: string[];
}

export function judgeLiveness(o: LivenessObservation): LivenessVerdict {
  const problems: string[] = [];
  if (Math.abs(o.centre.yaw) > LIVENESS_RULES.maxCenterYaw) problems.push(`the centre frame does not face the camera (yaw ${o.centre.yaw.toFixed(1)}°)`);
  if (o.bursts.length !== o.directions.length) problems.push(`expected ${o.directions.length} bursts, got ${o.bursts.length}`);
  o.directions.forEach((direction, i) => {
    const problem = o.bursts[i] && judgeBurst(direction, o.bursts[i], o.centre);
    if (problem) problems.push(`step ${i + 1} (${direction}): ${problem}`);
  });
  problems.push(...o.stills.map((s) => `still picture: ${s}`), ...o.otherFaces.map((s) => `another face: ${s}`));
  return { passed: problems.length === 0, problems };
}
