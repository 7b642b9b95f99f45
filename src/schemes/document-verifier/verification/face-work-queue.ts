import { Inject, Injectable, Optional } from '@nestjs/common';
import { Telemetry } from '../../../common/telemetry/telemetry.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { verifierConfig } from '../config/verifier-config.js';
import { faceBusy } from '../verifier.errors.js';

/** Seconds a refused app is asked to wait: about one face verification (a few seconds of CPU) per waiting slot. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Bounds the face work of this instance: at most FACE_CONCURRENCY verifications run, at most FACE_MAX_QUEUE
 * wait; beyond that the request is refused at once with 503 and Retry-After, instead of piling decoded
 * frames and tensors into memory until the process dies. The bound is per instance, so it holds whatever
 * the number of instances.
 */
@Injectable()
export class FaceWorkQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly telemetry?: Telemetry,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    const queued = performance.now();
    await this.acquire();
    const started = performance.now();
    this.report();
    try {
      return await work();
    } finally {
      this.release();
      this.report();
      this.telemetry?.emit('faceWork', (started - queued) / 1000, (performance.now() - started) / 1000);
    }
  }

  /** No verification runs or waits here: background face work (precomputation) may start without delaying one. */
  get idle(): boolean {
    return this.running === 0 && this.waiting.length === 0;
  }

  private report(): void {
    this.telemetry?.emit('faceQueue', this.running, this.waiting.length);
  }

  private acquire(): Promise<void> {
    const { faceConcurrency, faceMaxQueue } = verifierConfig(this.config);
    if (this.running < faceConcurrency) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= faceMaxQueue) {
      this.telemetry?.emit('faceRefused');
      throw faceBusy(RETRY_AFTER_SECONDS * (this.waiting.length + 1));
    }
    const granted = new Promise<void>((resolve) => this.waiting.push(resolve));
    this.report();
    return granted;
  }

  /** The slot passes straight to the next waiter, so `running` never dips and no newcomer jumps the queue. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
