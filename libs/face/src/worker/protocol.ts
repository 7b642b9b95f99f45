import type { FaceErrorCode } from '../errors.js';
import type { FaceQualityMetrics } from '../quality/face-quality.js';
import type { FaceAnalysis, FaceAnalysisOptions, FaceDetection, FaceEmbedding, RgbImage } from '../types.js';

/** A frame decoded and scaled once in a worker, with its signature (still/mirror checks) and the decode's CPU time. */
export interface PreparedFrame {
  image: RgbImage;
  signature: Float64Array;
  /** With `framing`: the padding the engine advises for this capture's frames (FaceEngine.framing). */
  padding?: number;
  ms: { decode: number; framing?: number };
}

/** A face analysis plus, when asked, the capture quality measured on the same pixels. */
export interface FrameAnalysis extends FaceAnalysis {
  quality?: FaceQualityMetrics;
  ms: FaceAnalysis['ms'] & { quality: number };
}

export type FrameAnalysisOptions = FaceAnalysisOptions & { quality?: boolean };

/** Messages between WorkerFaceEngine and its worker threads. */
export type FaceWorkerCall =
  | { op: 'warmUp' }
  | { op: 'detect' | 'embed'; image: Uint8Array | RgbImage }
  | { op: 'prepare'; image: Uint8Array; framing?: boolean }
  | { op: 'analyse'; image: Uint8Array | RgbImage; options: FrameAnalysisOptions };
export type FaceWorkerRequest = FaceWorkerCall & { id: number };

/**
 * `heapBytes`: the thread's own memory after the call, its V8 heap plus external memory (a WebAssembly heap counts
 * there), which the pool compares with its recycle bound.
 */
export type FaceWorkerResponse = { heapBytes?: number } & (
  | { id: number; ok: true; detections?: FaceDetection[]; embedding?: FaceEmbedding; prepared?: PreparedFrame; analysis?: FrameAnalysis }
  | { id: number; ok: false; error: { faceError?: FaceErrorCode; message: string } }
);
