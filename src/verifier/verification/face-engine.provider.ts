import type { Provider } from '@nestjs/common';
import type { FaceEngine } from '../../../libs/face/src/face-engine.js';
import { FaceApiEngine } from '../../../libs/face/src/face-api/face-api-engine.js';
import { loadMatchLevelTable } from '../../../libs/face/src/levels/load-calibration-table.js';
import type { MatchLevelTable } from '../../../libs/face/src/levels/match-level-table.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';

export const FACE_ENGINE = Symbol('FACE_ENGINE');
export const MATCH_LEVELS = Symbol('MATCH_LEVELS');

/**
 * The face engine and its calibration. The default is face-api (models inside its npm package, CPU);
 * an operator plugs another engine by providing FACE_ENGINE with its own calibration table.
 */
export const faceEngineProviders: Provider[] = [
  { provide: FACE_ENGINE, useFactory: (): FaceEngine => new FaceApiEngine() },
  {
    provide: MATCH_LEVELS,
    inject: [FACE_ENGINE, APP_CONFIG],
    useFactory: (engine: FaceEngine, config: AppConfig): MatchLevelTable => loadMatchLevelTable(engine.name, config.verifier.faceCalibrationFile),
  },
];
