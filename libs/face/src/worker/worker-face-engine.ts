import { Worker } from 'node:worker_threads';
import { describeFaceEngine, type FaceEngineSpec } from '../engine-spec.js';
import { FaceError } from '../errors.js';
import type { FaceEngine, SimilarityMetric } from '../face-engine.js';
import { cosineSimilarity, euclideanDistance } from '../similarity/embedding-distance.js';
import type { FaceDetection, FaceEmbedding, FaceImageInput } from '../types.js';
import type { FaceWorkerCall, FaceWorkerResponse } from './protocol.js';

/** From built JavaScript the entry loads as is; from TypeScript sources tsx is registered in the thread first. */
function createWorker(spec: FaceEngineSpec): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./face-worker.js', import.meta.url), { workerData: spec });
  const entry = new URL('./face-worker.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: spec });
}

type Pending = { resolve: (r: FaceWorkerResponse) => void; reject: (e: Error) => void };

/**
 * A face engine (face-api by default, or an ONNX model: `FaceEngineSpec`) in a worker thread, with the
 * same name, metric and calibration as the engine itself. Started on
 * first use; a crashed worker fails the requests in flight and is started again by the next one.
 * Running from TypeScript sources (tests, scripts) the worker loads its entry through tsx.
 */
export class WorkerFaceEngine implements FaceEngine {
  readonly name: string;
  readonly metric: SimilarityMetric;
  private worker?: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly spec: FaceEngineSpec = { kind: 'face-api' }) {
    ({ name: this.name, metric: this.metric } = describeFaceEngine(spec));
  }

  async warmUp(): Promise<void> {
    await this.call({ op: 'warmUp' });
  }

  async detect(image: FaceImageInput): Promise<FaceDetection[]> {
    return (await this.call({ op: 'detect', image })).detections ?? [];
  }

  async embed(image: FaceImageInput): Promise<FaceEmbedding> {
    const { embedding } = await this.call({ op: 'embed', image });
    const { presentation } = embedding!;
    return { embedding: new Float32Array(embedding!.embedding), detection: embedding!.detection, ...(presentation && { presentation }) };
  }

  similarity(a: Float32Array, b: Float32Array): number {
    return this.metric === 'cosine-similarity' ? cosineSimilarity(a, b) : euclideanDistance(a, b);
  }

  async terminate(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private async call(request: FaceWorkerCall): Promise<Extract<FaceWorkerResponse, { ok: true }>> {
    const id = this.nextId++;
    const response = await new Promise<FaceWorkerResponse>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ensureWorker().postMessage({ ...request, id });
    });
    if (!response.ok) {
      if (response.error.faceError) throw new FaceError(response.error.faceError, response.error.message);
      throw new Error(`face worker: ${response.error.message}`);
    }
    return response;
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = createWorker(this.spec);
    worker.unref();
    worker.on('message', (response: FaceWorkerResponse) => {
      const pending = this.pending.get(response.id);
      this.pending.delete(response.id);
      pending?.resolve(response);
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, pending] of this.pending) {
        this.pending.delete(id);
        pending.reject(error);
      }
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => code !== 0 && failAll(new Error(`face worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }
}
