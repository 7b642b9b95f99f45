/** Decoded image: 8-bit RGB, row-major, 3 bytes per pixel, no padding between rows. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Encoded image bytes (JPEG, PNG, JPEG 2000) or an already decoded image. */
export type FaceImageInput = Uint8Array | RgbImage;

export interface Point {
  x: number;
  y: number;
}

/** Axis-aligned box in pixel coordinates of the input image. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Head rotation in degrees, estimated from landmarks (see estimateHeadPose for conventions).
 * yaw > 0: subject turned to their own left; pitch > 0: looking up; roll > 0: head tilted
 * counter-clockwise as seen in the image.
 */
export interface HeadPose {
  yaw: number;
  pitch: number;
  roll: number;
}

export interface FaceDetection {
  box: Box;
  /** Detector confidence in [0, 1]. */
  score: number;
  /** 68-point iBUG layout (0-16 jaw, 17-26 brows, 27-35 nose, 36-47 eyes, 48-67 mouth). */
  landmarks: Point[];
  pose: HeadPose;
}

/**
 * Passive presentation-attack scores of one face, each in [0, 1], higher = more likely a live face in front of the
 * camera (libs/face/README.md "Passive presentation attack"). Scores, not decisions: the verifier combines them.
 */
export interface PresentationScores {
  /** Human's `antispoof` model (real vs. fake face). */
  antispoof: number;
  /** Human's `liveness` model (live vs. replayed/printed face). */
  liveness: number;
}

export interface FaceEmbedding {
  embedding: Float32Array;
  detection: FaceDetection;
  /** Present when the engine scores presentation attacks (FaceApiEngine does, unless told not to). */
  presentation?: PresentationScores;
}

/** One face analysed for the verifier: detection and landmarks always, the embedding only when asked for. */
export interface FaceAnalysis {
  detection: FaceDetection;
  embedding?: Float32Array;
  /** Padding (fraction per side) the detection was found with: 0 = the image as given. A hint for the next frame of the same camera. */
  padding: number;
  /** CPU milliseconds: detection with landmarks (every pass), the descriptor. */
  ms: { detect: number; embed: number };
  /** Present when the engine scores presentation attacks: every analysed frame, not only embedded ones. */
  presentation?: PresentationScores;
}

export interface FaceAnalysisOptions {
  /** Compute the embedding of the face (default false: detection and landmarks only). */
  descriptor?: boolean;
  /** Try this padding first (the one an earlier frame of the same capture needed); the usual ladder follows if it finds nothing. */
  padding?: number;
  /**
   * 'fast': a lighter detector for frames whose face is only followed (head pose, identity against the other frames
   * of the capture), never matched against a document photo; the accurate detector still runs when it finds no face.
   * Default 'accurate' (the detector the match levels were calibrated with). Engines with one detector ignore it.
   */
  detector?: 'accurate' | 'fast';
  /** false: no presentation-attack scores for this image (a document photo is not a live capture). Default: the engine's setting. */
  presentation?: boolean;
  /**
   * false: the descriptor of the aligned face alone, not averaged with its mirror image (half the network's work),
   * for frames only compared with the other frames of one capture. The match levels are calibrated on the
   * averaged descriptor: a face matched against a document photo keeps the default. Engines without mirror
   * averaging ignore it. Default true.
   */
  mirror?: boolean;
}
