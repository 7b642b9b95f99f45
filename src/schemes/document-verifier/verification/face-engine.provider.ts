import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { type FaceEngine, loadMatchLevelTable, type MatchLevelTable, WorkerFaceEngine } from '@identity-broker/face';
import { Telemetry } from '../../../common/telemetry/telemetry.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { verifierConfig } from '../config/verifier-config.js';

export const FACE_ENGINE = Symbol('FACE_ENGINE');
export const MATCH_LEVELS = Symbol('MATCH_LEVELS');

/** Stops the engine's worker threads with the application. */
@Injectable()
export class FaceEngineLifecycle implements OnApplicationShutdown {
  constructor(@Inject(FACE_ENGINE) private readonly engine: FaceEngine & { terminate?: () => Promise<void> }) {}

  async onApplicationShutdown(): Promise<void> {
    await this.engine.terminate?.();
  }
}

/**
 * The face engine and its calibration. The engine runs in a pool of worker threads (FACE_WORKERS), so a
 * verification never stalls the event loop and its frames run in parallel: face-api by default (models inside its npm package, CPU), or an ONNX model
 * (FACE_ENGINE=onnx, FACE_MODEL_PATH), whose table is calibration/onnx-<model file name>.json. Another
 * engine can be plugged by providing FACE_ENGINE with its own table. A missing table stops start-up.
 */
export const faceEngineProviders: Provider[] = [
  {
    provide: FACE_ENGINE,
    inject: [APP_CONFIG, { token: Telemetry, optional: true }],
    useFactory: (config: AppConfig, telemetry?: Telemetry): WorkerFaceEngine => {
      const { faceEngine, faceWorkers, faceWorkerRecycleMb, faceWorkerIdleRecycleSeconds } = verifierConfig(config);
      return new WorkerFaceEngine(faceEngine, {
        workers: faceWorkers,
        // A WASM heap never shrinks: a thread past the bound is replaced after its call (docs/document-verifier.md).
        recycleBytes: faceWorkerRecycleMb > 0 ? faceWorkerRecycleMb * 2 ** 20 : undefined,
        // And after a burst, a grown thread left idle: the memory goes back to its floor.
        idleRecycleMs: faceWorkerIdleRecycleSeconds > 0 ? faceWorkerIdleRecycleSeconds * 1000 : undefined,
        onRecycle: (reason) => telemetry?.emit('faceWorkerRecycled', reason),
      });
    },
  },
  {
    provide: MATCH_LEVELS,
    inject: [FACE_ENGINE, APP_CONFIG],
    useFactory: (engine: FaceEngine, config: AppConfig): MatchLevelTable => loadMatchLevelTable(engine.name, verifierConfig(config).faceCalibrationFile),
  },
  FaceEngineLifecycle,
];
