import { availableParallelism } from 'node:os';
import type { TransferListItem } from 'node:worker_threads';
import { describeFaceEngine, type FaceEngineSpec } from '../engine-spec.js';
import { FaceError } from '../errors.js';
import type { FaceEngine, SimilarityMetric } from '../face-engine.js';
import { cosineSimilarity, euclideanDistance } from '../similarity/embedding-distance.js';
import type { FaceAnalysisOptions, FaceDetection, FaceEmbedding, FaceImageInput } from '../types.js';
import { startFaceRunner, type FaceRunner } from './face-runner.js';
import type { FaceWorkerCall, FaceWorkerResponse, FrameAnalysis, FrameAnalysisOptions, PreparedFrame } from './protocol.js';

type Pending = { resolve: (r: FaceWorkerResponse) => void; reject: (e: Error) => void };
interface Job {
  request: FaceWorkerCall & { id: number };
  transfer: TransferListItem[];
  pending: Pending;
}
interface Slot {
  worker?: FaceRunner;
  /** The call this thread runs now (a thread runs one at a time). */
  current?: Job;
  /** Calls for this thread only (warmUp loads every thread's models). */
  pinned: Job[];
  /** The thread's own memory after its last call (FaceWorkerResponse.heapBytes); 0 before its first. */
  heapBytes: number;
  /** Its memory once its models were loaded: what a fresh thread costs. */
  floorBytes: number;
  /** Pending while the thread is idle (idleRecycleMs). */
  idleTimer?: NodeJS.Timeout;
  /** While a replaced thread is still exiting: its fresh successor starts only once its memory is gone. */
  replacing?: boolean;
}

/** Growth over its floor below which an idle thread is kept (a replacement costs its model loading, about 1 s of CPU). */
const IDLE_GROWTH_BYTES = 32 * 2 ** 20;

export interface WorkerFaceEngineOptions {
  /**
   * Worker threads, each with its own copy of the models; calls wait in one queue and go to whichever thread
   * is free, so independent frames run in parallel up to this many and a long call (a document photo's
   * accurate detection) does not hold back short ones queued behind it on the same thread. Default: the machine's cores, at most 2 (each face-api thread
   * adds about 330 MB of RSS: models, tfjs and a WASM heap that grows to SSD MobileNet's peak; libs/face/README.md).
   */
  workers?: number;
  /**
   * A thread whose own memory (V8 heap plus its WebAssembly heap, reported after each call) passes this many bytes
   * is replaced after that call: a WASM heap never shrinks, and ending the thread frees it at once. The fresh
   * thread loads its models before it takes a call. Undefined: never.
   */
  recycleBytes?: number;
  /**
   * A thread idle this long whose memory grew past what it cost fresh (by more than 32 MiB) is replaced too: after a
   * burst the service's memory goes back to its floor instead of staying at the burst's high mark until the next
   * recycle. Undefined: never.
   */
  idleRecycleMs?: number;
  /**
   * Told of every replaced thread: over the bound (`memory`), grown and idle (`idle`), or ended on its own (`exit`,
   * started again on its next call).
   */
  onRecycle?: (reason: FaceWorkerRecycleReason, heapBytes?: number) => void;
}

export type FaceWorkerRecycleReason = 'memory' | 'idle' | 'exit';

/**
 * A face engine (face-api by default, or an ONNX model: `FaceEngineSpec`) in a pool of worker threads, with
 * the same name, metric and calibration as the engine itself. Threads start on first use (or warmUp(), which
 * loads the models in every thread); a crashed thread fails its requests in flight and is started again by
 * the next call given to it. With `recycleBytes`, a thread whose own memory passed it after a call is replaced once
 * that call has answered (a WASM heap never shrinks; ending the thread frees it). Running from TypeScript sources
 * (tests, scripts) the threads load their entry through tsx.
 */
export class WorkerFaceEngine implements FaceEngine {
  readonly name: string;
  readonly metric: SimilarityMetric;
  readonly workers: number;
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private terminated = false;

  constructor(
    private readonly spec: FaceEngineSpec = { kind: 'face-api' },
    private readonly options: WorkerFaceEngineOptions = {},
  ) {
    ({ name: this.name, metric: this.metric } = describeFaceEngine(spec));
    this.workers = Math.max(1, options.workers ?? Math.min(2, availableParallelism()));
    this.slots = Array.from({ length: this.workers }, () => ({ pinned: [], heapBytes: 0, floorBytes: 0 }));
  }

  /**
   * The accurate detector runs on the first thread only: its activations grow a thread's WASM heap by about
   * 135 MB for good (a heap never shrinks), so the other threads, which follow burst frames with the light
   * detector, stay that much smaller. They still take the accurate ladder when the light one finds nothing.
   */
  private get accurateSlot(): Slot {
    return this.slots[0];
  }

  /** Threads running now (they start on first use). */
  get startedThreads(): number {
    return this.slots.filter((slot) => slot.worker).length;
  }

  /** Each thread's own memory (V8 heap plus WebAssembly heap) after its last call, in bytes; 0 for one not started. */
  get threadHeapBytes(): number[] {
    return this.slots.map((slot) => (slot.worker ? slot.heapBytes : 0));
  }

  /** Starts every thread and loads its models, so no request pays for it. */
  async warmUp(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.call({ op: 'warmUp' }, [], slot)));
  }

  async detect(image: FaceImageInput): Promise<FaceDetection[]> {
    return (await this.call({ op: 'detect', image }, [], this.accurateSlot)).detections ?? [];
  }

  async embed(image: FaceImageInput): Promise<FaceEmbedding> {
    const { embedding } = await this.call({ op: 'embed', image }, [], this.accurateSlot);
    const { presentation } = embedding!;
    return { embedding: new Float32Array(embedding!.embedding), detection: embedding!.detection, ...(presentation && { presentation }) };
  }

  analyseFace(image: FaceImageInput, options: FaceAnalysisOptions = {}): Promise<FrameAnalysis> {
    return this.analyseFrame(image, options);
  }

  /**
   * Decodes an encoded frame in a worker, scales it to the analysis size and takes its signature; FaceError
   * BAD_IMAGE / TOO_LARGE. `framing`: also the padding the engine advises for the frames of this capture.
   */
  async prepareFrame(bytes: Uint8Array, options: { framing?: boolean } = {}): Promise<PreparedFrame> {
    return (await this.call({ op: 'prepare', image: bytes, ...options })).prepared!;
  }

  /**
   * analyseFace() in a worker, plus the capture quality when asked. A decoded image whose pixels own their
   * ArrayBuffer is handed over, not copied: its pixels are unusable here afterwards.
   */
  async analyseFrame(image: FaceImageInput, options: FrameAnalysisOptions = {}): Promise<FrameAnalysis> {
    // Only a buffer the pixels own whole is moved: a view into a pool (Node's Buffer) is copied instead.
    const own = !(image instanceof Uint8Array) && image.data.byteOffset === 0 && image.data.byteLength === image.data.buffer.byteLength;
    const transfer = own ? [image.data.buffer as ArrayBuffer] : [];
    const { analysis } = await this.call({ op: 'analyse', image, options }, transfer, options.detector === 'fast' ? undefined : this.accurateSlot);
    return { ...analysis!, embedding: analysis!.embedding && new Float32Array(analysis!.embedding) };
  }

  similarity(a: Float32Array, b: Float32Array): number {
    return this.metric === 'cosine-similarity' ? cosineSimilarity(a, b) : euclideanDistance(a, b);
  }

  async terminate(): Promise<void> {
    this.terminated = true;
    const stopped = new Error('face engine terminated');
    for (const job of this.queue.splice(0)) job.pending.reject(stopped);
    await Promise.all(
      this.slots.map((slot) => {
        const worker = slot.worker;
        slot.worker = undefined;
        clearTimeout(slot.idleTimer);
        for (const job of [...(slot.current ? [slot.current] : []), ...slot.pinned.splice(0)]) job.pending.reject(stopped);
        slot.current = undefined;
        return worker?.stop();
      }),
    );
  }

  private async call(request: FaceWorkerCall, transfer: TransferListItem[] = [], slot?: Slot): Promise<Extract<FaceWorkerResponse, { ok: true }>> {
    const id = this.nextId++;
    const response = await new Promise<FaceWorkerResponse>((resolve, reject) => {
      const job: Job = { request: { ...request, id }, transfer, pending: { resolve, reject } };
      if (slot) slot.pinned.push(job);
      else this.queue.push(job);
      this.dispatch();
    });
    if (!response.ok) {
      if (response.error.faceError) throw new FaceError(response.error.faceError, response.error.message);
      throw new Error(`face worker: ${response.error.message}`);
    }
    return response;
  }

  /** Gives every idle thread its next call: its own pinned ones first, then the shared queue in order. */
  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.current || slot.replacing) continue;
      const job = slot.pinned.shift() ?? this.queue.shift();
      if (!job) continue;
      clearTimeout(slot.idleTimer);
      slot.current = job;
      this.ensureWorker(slot).postMessage(job.request, job.transfer);
    }
  }

  /**
   * Replaces a thread between two calls (it has answered its last one and holds none): its heap goes with it, and
   * the fresh thread's model loading goes first among the slot's calls, so the next call it takes pays nothing more
   * than a warm thread's. The fresh thread starts once the old one has exited, not beside it: the two together were
   * the process's peak (a grown accurate thread and a fresh one loading its models). Calls queued for any thread go to
   * the others meanwhile.
   */
  private recycle(slot: Slot, worker: FaceRunner, heapBytes: number, reason: 'memory' | 'idle'): void {
    if (slot.worker !== worker || this.terminated) return;
    slot.worker = undefined;
    // Until the fresh thread reports, it holds nothing of the old one's memory.
    slot.heapBytes = 0;
    slot.replacing = true;
    void worker
      .stop()
      .catch(() => undefined)
      .finally(() => {
        slot.replacing = false;
        if (!this.terminated) this.dispatch();
      });
    this.options.onRecycle?.(reason, heapBytes);
    const warmUp: Job = { request: { op: 'warmUp', id: this.nextId++ }, transfer: [], pending: { resolve: () => undefined, reject: () => undefined } };
    slot.pinned.unshift(warmUp);
  }

  /** Replaces the thread if it is still idle after idleRecycleMs and has grown past its floor (dispatch cancels). */
  private whenIdle(slot: Slot, worker: FaceRunner): void {
    const { idleRecycleMs } = this.options;
    if (idleRecycleMs === undefined) return;
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      const grown = slot.floorBytes > 0 && slot.heapBytes > slot.floorBytes + IDLE_GROWTH_BYTES;
      if (grown && !slot.current && slot.pinned.length === 0) {
        this.recycle(slot, worker, slot.heapBytes, 'idle');
        this.dispatch();
      }
    }, idleRecycleMs);
    slot.idleTimer.unref();
  }

  private ensureWorker(slot: Slot): FaceRunner {
    if (slot.worker) return slot.worker;
    const worker = startFaceRunner(this.spec);
    worker.unref();
    worker.onMessage((response) => {
      const job = slot.current;
      if (job?.request.id !== response.id) return;
      slot.current = undefined;
      if (response.heapBytes !== undefined) slot.heapBytes = response.heapBytes;
      const loadedModels = job.request.op === 'warmUp';
      if (loadedModels && response.heapBytes !== undefined) slot.floorBytes = response.heapBytes;
      job.pending.resolve(response);
      const { recycleBytes } = this.options;
      // Never after loading the models: a fresh thread is the floor a bound below it would replace again and again.
      const overBound = recycleBytes !== undefined && response.heapBytes !== undefined && response.heapBytes > recycleBytes;
      if (overBound && !loadedModels) this.recycle(slot, worker, response.heapBytes!, 'memory');
      else if (!loadedModels) this.whenIdle(slot, worker);
      this.dispatch();
    });
    const fail = (error: Error) => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      const job = slot.current;
      slot.current = undefined;
      job?.pending.reject(error);
      if (!this.terminated) this.options.onRecycle?.('exit');
      // The queue goes on: the next call starts this thread again.
      this.dispatch();
    };
    worker.onFailure(fail);
    slot.worker = worker;
    return worker;
  }
}
