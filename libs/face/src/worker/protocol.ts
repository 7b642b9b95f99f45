import type { FaceErrorCode } from '../errors.js';
import type { FaceDetection, FaceEmbedding, RgbImage } from '../types.js';

/** Messages between WorkerFaceEngine and its worker thread. */
export type FaceWorkerCall = { op: 'warmUp' } | { op: 'detect' | 'embed'; image: Uint8Array | RgbImage };
export type FaceWorkerRequest = FaceWorkerCall & { id: number };

export type FaceWorkerResponse =
  | { id: number; ok: true; detections?: FaceDetection[]; embedding?: FaceEmbedding }
  | { id: number; ok: false; error: { faceError?: FaceErrorCode; message: string } };
