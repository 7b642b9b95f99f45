import { createRequire } from 'node:module';
import path from 'node:path';
import { FaceError } from '../errors.js';
import { FaceApiEngine } from '../face-api/face-api-engine.js';
import type { FaceEngine, SimilarityMetric } from '../face-engine.js';
import { toRgbImage } from '../image/decode-image.js';
import { selectSingleFace } from '../select-single-face.js';
import { scorePresentation } from '../presentation/score-presentation.js';
import { cosineSimilarity } from '../similarity/embedding-distance.js';
import type { FaceAnalysis, FaceAnalysisOptions, FaceDetection, FaceEmbedding, FaceImageInput, RgbImage } from '../types.js';
import { alignFace, fivePointsFrom68 } from './align-face.js';

// onnxruntime-node 1.17.0 ships without its .d.ts; its exports are onnxruntime-common's API (same version).
type Ort = typeof import('onnxruntime-common');
type Session = import('onnxruntime-common').InferenceSession;
const require = createRequire(import.meta.url);

export interface OnnxFaceEngineOptions {
  /** Path of the .onnx recognition model (an ArcFace-class network: aligned face in, embedding out). */
  modelPath: string;
  /** Engine name, hence calibration/<name>.json. Default `onnx-<model file name without .onnx>`. */
  name?: string;
  /** Side of the square input the model expects. Default 112 (ArcFace). */
  inputSize?: number;
  /** Pixel normalisation (value - mean) / std. Default 127.5 / 128 (insightface ArcFace models). */
  mean?: number;
  std?: number;
  /** Channel order of the input. Default 'rgb' (insightface's ONNX exports; some older models want 'bgr'). */
  channels?: 'rgb' | 'bgr';
  /** Tensor layout. Default 'nchw'. */
  layout?: 'nchw' | 'nhwc';
  /** Detector (face-api SSD + 68 landmarks) settings, as for FaceApiEngine. */
  detector?: FaceApiEngine;
  secondaryFaceAreaRatio?: number;
}

/** The engine name for a model file: stable across machines (file name only), distinct per model. */
export function onnxEngineName(modelPath: string): string {
  const base = path
    .basename(modelPath)
    .replace(/\.onnx$/i, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-');
  return `onnx-${base}`;
}

/**
 * FaceEngine on an ONNX recognition model run by onnxruntime-node (CPU). Detection and the 68 landmarks
 * come from face-api (the model only embeds); the 5 ArcFace points derived from them drive a similarity
 * alignment onto the standard template, the crop is normalised into the model's input, and the output is
 * L2-normalised and compared by cosine similarity. The model is read from disk once, on first use.
 */
export class OnnxFaceEngine implements FaceEngine {
  readonly name: string;
  readonly metric: SimilarityMetric = 'cosine-similarity';
  private readonly detector: FaceApiEngine;
  private readonly inputSize: number;
  private readonly secondaryFaceAreaRatio: number;
  private session?: Promise<Session>;

  constructor(private readonly options: OnnxFaceEngineOptions) {
    this.name = options.name ?? onnxEngineName(options.modelPath);
    this.detector = options.detector ?? new FaceApiEngine();
    this.inputSize = options.inputSize ?? 112;
    this.secondaryFaceAreaRatio = options.secondaryFaceAreaRatio ?? 0.25;
  }

  async warmUp(): Promise<void> {
    await Promise.all([this.detector.warmUp(), this.loadSession()]);
  }

  detect(image: FaceImageInput): Promise<FaceDetection[]> {
    return this.detector.detect(image);
  }

  async embed(input: FaceImageInput): Promise<FaceEmbedding> {
    const { embedding, detection, presentation } = await this.analyseFace(input, { descriptor: true });
    return { embedding: embedding!, detection, ...(presentation && { presentation }) };
  }

  /** Detection and landmarks by face-api (its padding ladder and hint), the embedding by the model when asked. */
  async analyseFace(input: FaceImageInput, options: FaceAnalysisOptions = {}): Promise<FaceAnalysis> {
    const image = await toRgbImage(input);
    let start = performance.now();
    const { padding } = options;
    const detection = selectSingleFace(await this.detector.detect(image, padding), (d) => d, this.secondaryFaceAreaRatio);
    const ms = { detect: performance.now() - start, embed: 0 };
    // face-api's detect() does not score presentation; the chosen face is scored here, on every analysed frame.
    const presentation = await scorePresentation(image, detection);
    if (!options.descriptor) return { detection, padding: padding ?? 0, ms, ...(presentation && { presentation }) };
    start = performance.now();
    const aligned = alignFace(image, fivePointsFrom68(detection.landmarks), this.inputSize);
    const embedding = l2Normalise(await this.infer(aligned));
    ms.embed = performance.now() - start;
    if (!embedding) throw new FaceError('NO_FACE', 'the model returned a zero embedding for the face');
    return { detection, embedding, padding: padding ?? 0, ms, ...(presentation && { presentation }) };
  }

  similarity(a: Float32Array, b: Float32Array): number {
    return cosineSimilarity(a, b);
  }

  /** Runs the model on one aligned crop; returns its first output as is. */
  private async infer(face: RgbImage): Promise<Float32Array> {
    const ort = require('onnxruntime-node') as Ort;
    const session = await this.loadSession();
    const layout = this.options.layout ?? 'nchw';
    const dims = layout === 'nchw' ? [1, 3, face.height, face.width] : [1, face.height, face.width, 3];
    const input = new ort.Tensor('float32', this.toInput(face, layout), dims);
    const outputs = await session.run({ [session.inputNames[0]]: input });
    const output = outputs[session.outputNames[0]];
    if (output.type !== 'float32') throw new Error(`${this.options.modelPath}: expected a float32 embedding, got ${output.type}`);
    return Float32Array.from(output.data as Float32Array);
  }

  private toInput(face: RgbImage, layout: 'nchw' | 'nhwc'): Float32Array {
    const mean = this.options.mean ?? 127.5;
    const std = this.options.std ?? 128;
    const order = (this.options.channels ?? 'rgb') === 'rgb' ? [0, 1, 2] : [2, 1, 0];
    const pixels = face.width * face.height;
    const out = new Float32Array(pixels * 3);
    for (let i = 0; i < pixels; i++) {
      for (let c = 0; c < 3; c++) {
        const value = (face.data[i * 3 + order[c]] - mean) / std;
        out[layout === 'nchw' ? c * pixels + i : i * 3 + c] = value;
      }
    }
    return out;
  }

  private loadSession(): Promise<Session> {
    // The native binding loads only when an ONNX engine is used, so face-api deployments never touch it.
    return (this.session ??= (require('onnxruntime-node') as Ort).InferenceSession.create(this.options.modelPath, {
      executionProviders: ['cpu'],
      // One thread: the service runs one face at a time per worker on a shared machine (FACE_CONCURRENCY).
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
    }).catch((error: unknown) => {
      this.session = undefined;
      throw new Error(`cannot load ONNX face model ${this.options.modelPath}: ${(error as Error).message}`);
    }));
  }
}

function l2Normalise(vector: Float32Array): Float32Array | undefined {
  let sum = 0;
  for (const v of vector) sum += v * v;
  if (!(sum > 0) || !Number.isFinite(sum)) return undefined;
  const norm = Math.sqrt(sum);
  return vector.map((v) => v / norm);
}
