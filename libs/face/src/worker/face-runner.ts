import { fork, type ChildProcess } from 'node:child_process';
import { Worker, type TransferListItem } from 'node:worker_threads';
import type { FaceEngineSpec } from '../engine-spec.js';
import type { FaceWorkerRequest, FaceWorkerResponse } from './protocol.js';

/**
 * A thread's young generation: 48 MiB is two 16 MiB semi-spaces (and V8's new large-object space). Left to V8, it
 * is sized from the machine's memory and grows to 128 MiB of new space while frames are decoded, which the thread
 * keeps while it lives: about 90 MiB more per thread after a burst, for no measurable speed (libs/face/README.md).
 */
const YOUNG_GENERATION_MB = 48;
const SEMI_SPACE_MB = 16;
/** The environment a face worker process gets: the C library's allocator setting (SERVICE_ENV), the path, the time zone. */
const CHILD_ENV = new Set(['PATH', 'TZ', 'MALLOC_MMAP_THRESHOLD_', 'MALLOC_ARENA_MAX']);

/** Where one engine of the pool runs: a worker thread, or a child process for engines on a native runtime. */
export interface FaceRunner {
  postMessage(request: FaceWorkerRequest, transfer: TransferListItem[]): void;
  onMessage(listener: (response: FaceWorkerResponse) => void): void;
  /** It failed or ended with a non-zero code (or a signal) without being told to stop. */
  onFailure(listener: (error: Error) => void): void;
  /** Ends it and resolves once it has gone (its memory with it). */
  stop(): Promise<void>;
  /** Does not keep the caller's process alive. */
  unref(): void;
}

/**
 * ONNX Runtime's Node binding (1.17) cannot live through worker threads that come and go in one process: once the
 * last thread that loaded it has ended, a new thread cannot load it again ("Module did not self-register"), and
 * while another thread (or the main one) still holds it, a thread ending frees its shared state a second time and
 * the whole process aborts ("double free or corruption", "terminate called after throwing an instance of
 * 'Napi::Error'"). A child process loads its own copy and ends cleanly, so recycling and stopping an ONNX engine
 * never touch the service's process. face-api (tfjs on WASM) stays in threads: their pixels move without a copy.
 */
export function startFaceRunner(spec: FaceEngineSpec): FaceRunner {
  return spec.kind === 'onnx' ? new ProcessRunner(spec) : new ThreadRunner(spec);
}

/** From built JavaScript the entry loads as is; from TypeScript sources tsx is registered first. */
const fromSources = import.meta.url.endsWith('.ts');
const entry = new URL(fromSources ? './face-worker.ts' : './face-worker.js', import.meta.url);

class ThreadRunner implements FaceRunner {
  private readonly worker: Worker;

  constructor(spec: FaceEngineSpec) {
    const options = { workerData: spec, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } };
    const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
    this.worker = fromSources ? new Worker(bootstrap, { ...options, eval: true }) : new Worker(entry, options);
  }

  postMessage(request: FaceWorkerRequest, transfer: TransferListItem[]): void {
    this.worker.postMessage(request, transfer);
  }

  onMessage(listener: (response: FaceWorkerResponse) => void): void {
    this.worker.on('message', listener);
  }

  onFailure(listener: (error: Error) => void): void {
    this.worker.on('error', listener);
    this.worker.on('exit', (code) => code !== 0 && listener(new Error(`face worker exited with code ${code}`)));
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }

  unref(): void {
    this.worker.unref();
  }
}

class ProcessRunner implements FaceRunner {
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;
  private weak = false;

  constructor(spec: FaceEngineSpec) {
    // The spec travels as an argument (a path and a name); messages are structured clones (typed arrays included).
    this.child = fork(entry, [JSON.stringify(spec)], {
      execArgv: [`--max-semi-space-size=${SEMI_SPACE_MB}`, ...(fromSources ? ['--import', 'tsx'] : [])],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // Only what the runtime reads: the service's secrets (database URL, keys) stay out of another process's environment.
      env: Object.fromEntries(Object.entries(process.env).filter(([name]) => CHILD_ENV.has(name))),
    });
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
  }

  postMessage(request: FaceWorkerRequest): void {
    // Copied, not moved: a process shares no memory (the caller's pixels stay usable). While a call is out, its
    // channel keeps the caller alive, as a thread's pending message does.
    this.child.channel?.ref();
    this.child.send(request, (error) => error && this.child.emit('error', error));
  }

  onMessage(listener: (response: FaceWorkerResponse) => void): void {
    this.child.on('message', (message) => {
      if (this.weak) this.child.channel?.unref();
      listener(message as FaceWorkerResponse);
    });
  }

  onFailure(listener: (error: Error) => void): void {
    this.child.on('error', listener);
    this.child.on('exit', (code, signal) => {
      if (code !== 0) listener(new Error(`face worker process exited with ${signal ?? `code ${code}`}`));
    });
  }

  async stop(): Promise<void> {
    // Whoever waits for the stop waits for the exit too.
    this.child.ref();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  unref(): void {
    this.weak = true;
    this.child.unref();
    this.child.channel?.unref();
  }
}
