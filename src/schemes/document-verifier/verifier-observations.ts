import { Inject, Injectable } from '@nestjs/common';
import type { FaceEngine } from '@identity-broker/face';
import { ObservedScheme, type SchemeObservations } from '../../broker/spi/scheme-observations.js';
import { FACE_ENGINE } from './verification/face-engine.provider.js';
import { TrustStoreProvider } from './verification/trust-store.provider.js';

type ObservedEngine = FaceEngine & { warmUp?: () => Promise<void>; threadHeapBytes?: number[] };

/**
 * What operations watch of the document verifier (docs/operations.md): the CSCAs and CRLs it trusts (their expiry
 * series), the face models (readiness check `face_models`: the workers' first load takes seconds of CPU, so the
 * instance is ready once they are warm), and the face worker threads' memory (`broker_face_worker_memory_bytes`).
 */
@ObservedScheme()
@Injectable()
export class VerifierObservations implements SchemeObservations {
  constructor(
    @Inject(FACE_ENGINE) private readonly engine: ObservedEngine,
    private readonly trust: TrustStoreProvider,
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
}
