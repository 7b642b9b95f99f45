import { FaceApiEngine } from './face-api/face-api-engine.js';
import type { FaceEngine, SimilarityMetric } from './face-engine.js';
import { onnxEngineName, OnnxFaceEngine } from './onnx/onnx-face-engine.js';

/**
 * Which engine to build: plain data, so it can cross into the worker thread (workerData) and name the
 * calibration table before any model is loaded.
 */
export type FaceEngineSpec = { kind: 'face-api' } | { kind: 'onnx'; modelPath: string; name?: string };

export function createFaceEngineFromSpec(spec: FaceEngineSpec): FaceEngine & { warmUp(): Promise<void> } {
  return spec.kind === 'onnx' ? new OnnxFaceEngine({ modelPath: spec.modelPath, name: spec.name }) : new FaceApiEngine();
}

/** Name and metric of the engine a spec builds, without building it. */
export function describeFaceEngine(spec: FaceEngineSpec): { name: string; metric: SimilarityMetric } {
  if (spec.kind === 'onnx') return { name: spec.name ?? onnxEngineName(spec.modelPath), metric: 'cosine-similarity' };
  return { name: 'face-api-resnet128', metric: 'euclidean-distance' };
}
