import type { FaceAnalysis, FaceAnalysisOptions, FaceDetection, FaceEmbedding, FaceImageInput } from './types.js';

/**
 * How an engine's similarity() number is read:
 * - 'cosine-similarity': higher means more alike (1 = identical direction);
 * - 'euclidean-distance': lower means more alike (0 = identical).
 * The calibration table of the engine must use the same metric.
 */
export type SimilarityMetric = 'cosine-similarity' | 'euclidean-distance';

/**
 * A face detector + embedder. Implement this to plug another model (e.g. an ArcFace ONNX
 * model); ship a calibration table named after `name` so match levels stay meaningful.
 */
export interface FaceEngine {
  /** Stable identifier; also the calibration file name (libs/face/calibration/<name>.json). */
  readonly name: string;
  readonly metric: SimilarityMetric;
  /** All faces found, largest first. Never throws for "no face" (returns []); throws FaceError BAD_IMAGE for undecodable input. */
  detect(image: FaceImageInput): Promise<FaceDetection[]>;
  /** Embedding of the single face in the image; throws FaceError NO_FACE / MULTIPLE_FACES / BAD_IMAGE. */
  embed(image: FaceImageInput): Promise<FaceEmbedding>;
  /** Compares two embeddings of this engine, read according to `metric`. */
  similarity(a: Float32Array, b: Float32Array): number;
  /**
   * The single face (throws as embed() does), with the embedding only when asked and CPU timings. Optional:
   * `analyseFace()` in face-analysis.ts falls back to embed()/detect() for engines without it.
   */
  analyseFace?(image: FaceImageInput, options?: FaceAnalysisOptions): Promise<FaceAnalysis>;
  /** The `padding` to give analyseFace() for the frames of the capture this frame opens (engines that pad). */
  framing?(image: FaceImageInput): Promise<number>;
}
