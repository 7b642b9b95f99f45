import { Inject, Injectable, Optional } from '@nestjs/common';
import type { FaceEngine } from '@identity-broker/face';
import { ObservedScheme, type SchemeObservations } from '../../broker/spi/scheme-observations.js';
import { Telemetry } from '../../common/telemetry/telemetry.js';
import { FACE_ENGINE } from './verification/face-engine.provider.js';
import { TrustStoreProvider } from './verification/trust-store.provider.js';

type ObservedEngine = FaceEngine & { warmUp?: () => Promise<void>; threadHeapBytes?: number[] };

/**
 * What operations watch of the document verifier (docs/operations.md): the CSCAs and CRLs it trusts (their expiry
 * series), the face models (readiness check `face_models`: the workers' first load takes seconds of CPU, so the
 * instance is ready once they are warm), and the face worker threads' memory (`broker_face_worker_memory_bytes`) and
 * replacements (`broker_face_worker_recycles_total`).
 */
@ObservedScheme()
@Injectable()
export class VerifierObservations implements SchemeObservations {
  constructor(
    @Inject(FACE_ENGINE) private readonly engine: ObservedEngine,
    private readonly trust: TrustStoreProvider,
    @Optional() private readonly telemetry?: Telemetry,
  ) {}

  documentTrustStore() {
    return this.trust.get();
  }

  readonly readiness = { check: 'face_models', warmUp: async () => this.engine.warmUp?.() };

  readonly workerMemory = {
    name: 'broker_face_worker_memory_bytes',
    help: "Each face worker thread's own memory (its V8 heap and WebAssembly heap) after its last call; 0 for a thread not running",
    // A plugged engine without threads has no such figures: the gauge stays empty.
    threadHeapBytes: () => this.engine.threadHeapBytes,
  };

  readonly workerRecycles = {
    name: 'broker_face_worker_recycles_total',
    help: 'Face worker threads replaced: over FACE_WORKER_RECYCLE_MB of their own memory (reason=memory), grown and idle for FACE_WORKER_IDLE_RECYCLE_SECONDS (reason=idle), or ended on their own (reason=exit)',
    reasons: ['memory', 'idle', 'exit'],
    onRecycle: (count: (reason: string) => void) => this.telemetry?.on('faceWorkerRecycled', count),
  };
}
