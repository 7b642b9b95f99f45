import { availableParallelism } from 'node:os';
import { Worker, type TransferListItem } from 'node:worker_threads';
import { describeFaceEngine, type FaceEngineSpec } from '../engine-spec.js';
import { FaceError } from '../errors.js';
import type { FaceEngine, SimilarityMetric } from '../face-engine.js';
import { cosineSimilarity, euclideanDistance } from '../similarity/embedding-distance.js';
import type { FaceAnalysisOptions, FaceDetection, FaceEmbedding, FaceImageInput, RgbImage } from '../types.js';
import type { FaceWorkerCall, FaceWorkerResponse, FrameAnalysis, FrameAnalysisOptions, PreparedFrame } from './protocol.js';

/** From built JavaScript the entry loads as is; from TypeScript sources tsx is registered in the thread first. */
function createWorker(spec: FaceEngineSpec): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./face-worker.js', import.meta.url), { workerData: spec });
  const entry = new URL('./face-worker.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: spec });
}

type Pending = { resolve: (r: FaceWorkerResponse) => void; reject: (e: Error) => void };
interface Slot {
  worker?: Worker;
  pending: Map<number, Pending>;
}

export interface WorkerFaceEngineOptions {
  /**
   * Worker threads, each with its own copy of the models; calls go to the least busy one, so independent
   * frames run in parallel up to this many. Default: the machine's cores, at most 2 (each face-api thread
   * adds about 330 MB of RSS: models, tfjs and a WASM heap that grows to SSD MobileNet's peak; libs/face/README.md).
   */
  workers?: number;
}

/**
 * A face engine (face-api by default, or an ONNX model: `FaceEngineSpec`) in a pool of worker threads, with
 * the same name, metric and calibration as the engine itself. Threads start on first use (or warmUp(), which
 * loads the models in every thread); a crashed thread fails its requests in flight and is started again by
 * the next call given to it. Running from TypeScript sources (tests, scripts) the threads load their entry
 * through tsx.
 */
export class WorkerFaceEngine implements FaceEngine {
  readonly name: string;
  readonly metric: SimilarityMetric;
  readonly workers: number;
  private readonly slots: Slot[];
  private nextId = 1;

  constructor(
    private readonly spec: FaceEngineSpec = { kind: 'face-api' },
    options: WorkerFaceEngineOptions = {},
  ) {
    ({ name: this.name, metric: this.metric } = describeFaceEngine(spec));
    this.workers = Math.max(1, options.workers ?? Math.min(2, availableParallelism()));
    this.slots = Array.from({ length: this.workers }, () => ({ pending: new Map() }));
  }

  /** Threads running now (they start on first use). */
  get startedThreads(): number {
    return this.slots.filter((slot) => slot.worker).length;
  }

  /** Starts every thread and loads its models, so no request pays for it. */
  async warmUp(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.call({ op: 'warmUp' }, [], slot)));
  }

  async detect(image: FaceImageInput): Promise<FaceDetection[]> {
    return (await this.call({ op: 'detect', image })).detections ?? [];
  }

  async embed(image: FaceImageInput): Promise<FaceEmbedding> {
    const { embedding } = await this.call({ op: 'embed', image });
    const { presentation } = embedding!;
    return { embedding: new Float32Array(embedding!.embedding), detection: embedding!.detection, ...(presentation && { presentation }) };
  }

  analyseFace(image: FaceImageInput, options: FaceAnalysisOptions = {}): Promise<FrameAnalysis> {
    return this.analyseFrame(image, options);
  }

  /** Decodes an encoded frame in a worker, scales it to the analysis size and takes its signature; FaceError BAD_IMAGE / TOO_LARGE. */
  async prepareFrame(bytes: Uint8Array): Promise<PreparedFrame> {
    return (await this.call({ op: 'prepare', image: bytes })).prepared!;
  }

  /**
   * analyseFace() in a worker, plus the capture quality when asked. A decoded image whose pixels own their
   * ArrayBuffer is handed over, not copied: its pixels are unusable here afterwards.
   */
  async analyseFrame(image: FaceImageInput, options: FrameAnalysisOptions = {}): Promise<FrameAnalysis> {
    // Only a buffer the pixels own whole is moved: a view into a pool (Node's Buffer) is copied instead.
    const own = !(image instanceof Uint8Array) && image.data.byteOffset === 0 && image.data.byteLength === image.data.buffer.byteLength;
    const transfer = own ? [image.data.buffer as ArrayBuffer] : [];
    const { analysis } = await this.call({ op: 'analyse', image, options }, transfer);
    return { ...analysis!, embedding: analysis!.embedding && new Float32Array(analysis!.embedding) };
  }

  similarity(a: Float32Array, b: Float32Array): number {
    return this.metric === 'cosine-similarity' ? cosineSimilarity(a, b) : euclideanDistance(a, b);
  }

  async terminate(): Promise<void> {
    await Promise.all(
      this.slots.map((slot) => {
        const worker = slot.worker;
        slot.worker = undefined;
        return worker?.terminate();
      }),
    );
  }

  private async call(request: FaceWorkerCall, transfer: TransferListItem[] = [], slot = this.leastBusy()): Promise<Extract<FaceWorkerResponse, { ok: true }>> {
    const id = this.nextId++;
    const response = await new Promise<FaceWorkerResponse>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      this.ensureWorker(slot).postMessage({ ...request, id }, transfer);
    });
    if (!response.ok) {
      if (response.error.faceError) throw new FaceError(response.error.faceError, response.error.message);
      throw new Error(`face worker: ${response.error.message}`);
    }
    return response;
  }

  /** The thread with the fewest calls waiting (the first on a tie, so a lone caller keeps one warm thread busy). */
  private leastBusy(): Slot {
    return this.slots.reduce((best, slot) => (slot.pending.size < best.pending.size ? slot : best));
  }

  private ensureWorker(slot: Slot): Worker {
    if (slot.worker) return slot.worker;
    const worker = createWorker(this.spec);
    worker.unref();
    worker.on('message', (response: FaceWorkerResponse) => {
      const pending = slot.pending.get(response.id);
      slot.pending.delete(response.id);
      pending?.resolve(response);
    });
    const failAll = (error: Error) => {
      if (slot.worker === worker) slot.worker = undefined;
      for (const [id, pending] of slot.pending) {
        slot.pending.delete(id);
        pending.reject(error);
      }
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => code !== 0 && failAll(new Error(`face worker exited with code ${code}`)));
    slot.worker = worker;
    return worker;
  }
}
