import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { FaceEngineSpec } from '@identity-broker/face';
import { ConfigError } from '../../../config/app-config.js';
import type { AppConfig } from '../../../config/load-config.js';
import { DEFAULT_VERIFIER_APP_NAME, DocumentVerifierVariables, VERIFIER_VARIABLE_NAMES } from './verifier-variables.js';

/** The document verifier's section of the configuration (docs/configuration.md, "Document verifier"). */
export interface VerifierConfig {
  sessionTtlSeconds: number;
  livenessWindowSeconds: number;
  retentionDays: number;
  minFacematchLevelForHigh: number;
  /** Trust files (TRUST_*) and how long past its nextUpdate a CRL still counts as current (TRUST_CRL_GRACE_HOURS). */
  trust: { cscaPaths: string[]; masterLists: string[]; masterListAnchors: string[]; crls: string[]; crlGraceHours: number };
  /** Deep link base of the app build for this environment (spec 1.6: test and production builds differ). */
  appLink: string;
  /** The app as the waiting page names it, with its store pages (App Store, Google Play) when configured. */
  app: { name: string; storeLinks: { store: 'App Store' | 'Google Play'; href: string }[] };
  faceCalibrationFile?: string;
  /** Which face engine the worker runs (FACE_ENGINE, FACE_MODEL_PATH); its name picks the calibration table. */
  faceEngine: FaceEngineSpec;
  /** Face verifications run at once, and how many may wait (beyond: 503 with Retry-After). */
  faceConcurrency: number;
  faceMaxQueue: number;
  /** Worker threads of the face engine (FACE_WORKERS); undefined: the engine's default. */
  faceWorkers?: number;
  /** A face worker thread over this many MiB of its own memory is replaced (FACE_WORKER_RECYCLE_MB); 0: never. */
  faceWorkerRecycleMb: number;
  /** A grown face worker thread idle this many seconds is replaced (FACE_WORKER_IDLE_RECYCLE_SECONDS); 0: never. */
  faceWorkerIdleRecycleSeconds: number;
}

const list = (value?: string) =>
  value
    ? value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    : [];

/** What production needs of the verifier: somewhere to anchor the documents' chains. */
function productionProblems(vars: DocumentVerifierVariables): string[] {
  const problems: string[] = [];
  if (!vars.TRUST_CSCA_PATHS && !vars.TRUST_MASTERLISTS)
    problems.push('TRUST_CSCA_PATHS: production needs trust anchors for the document verifier (TRUST_CSCA_PATHS or TRUST_MASTERLISTS)');
  if (vars.TRUST_MASTERLISTS && !vars.TRUST_MASTERLIST_ANCHORS)
    problems.push('TRUST_MASTERLIST_ANCHORS: master lists need the certificates their signers chain to');
  return problems;
}

/**
 * Reads the verifier's variables (its manifest's `config`): a ConfigError names each problem (bad values, what
 * production lacks, a face model that is not there), and the start reports them in the service's one list. The
 * trust files themselves are read by the trust store's start-up (trust-store.provider.ts), not here.
 */
export function loadVerifierConfig(env: Record<string, string | undefined>, isProduction: boolean): VerifierConfig {
  const picked = Object.fromEntries(VERIFIER_VARIABLE_NAMES.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
  const vars = plainToInstance(DocumentVerifierVariables, picked);
  const problems = validateSync(vars, { skipMissingProperties: false }).map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
  if (problems.length) throw new ConfigError(problems);
  if (isProduction) problems.push(...productionProblems(vars));
  // A missing model would otherwise surface only at the first face verification, or as a worker crash.
  const faceModelPath = vars.FACE_MODEL_PATH === undefined ? undefined : resolve(vars.FACE_MODEL_PATH);
  if (vars.FACE_ENGINE === 'onnx' && !existsSync(faceModelPath!)) problems.push(`FACE_MODEL_PATH: no file at ${faceModelPath}`);
  if (problems.length) throw new ConfigError(problems);
  return {
    sessionTtlSeconds: vars.VERIFIER_SESSION_TTL_SECONDS,
    livenessWindowSeconds: vars.LIVENESS_WINDOW_SECONDS,
    retentionDays: vars.VERIFICATION_RETENTION_DAYS,
    minFacematchLevelForHigh: vars.FACEMATCH_MIN_LEVEL_FOR_HIGH,
    trust: {
      cscaPaths: list(vars.TRUST_CSCA_PATHS),
      masterLists: list(vars.TRUST_MASTERLISTS),
      masterListAnchors: list(vars.TRUST_MASTERLIST_ANCHORS),
      crls: list(vars.TRUST_CRLS),
      crlGraceHours: vars.TRUST_CRL_GRACE_HOURS,
    },
    appLink: vars.VERIFIER_APP_LINK ?? (isProduction ? 'brokerverify://session' : 'brokerverify-test://session'),
    app: {
      name: (vars.VERIFIER_APP_NAME ?? DEFAULT_VERIFIER_APP_NAME).trim(),
      storeLinks: [
        ...(vars.VERIFIER_APP_STORE_URL ? [{ store: 'App Store' as const, href: vars.VERIFIER_APP_STORE_URL }] : []),
        ...(vars.VERIFIER_PLAY_STORE_URL ? [{ store: 'Google Play' as const, href: vars.VERIFIER_PLAY_STORE_URL }] : []),
      ],
    },
    faceCalibrationFile: vars.FACE_CALIBRATION_FILE,
    faceEngine: vars.FACE_ENGINE === 'onnx' ? { kind: 'onnx', modelPath: faceModelPath! } : { kind: 'face-api' },
    faceConcurrency: vars.FACE_CONCURRENCY,
    faceMaxQueue: vars.FACE_MAX_QUEUE,
    faceWorkers: vars.FACE_WORKERS,
    faceWorkerRecycleMb: vars.FACE_WORKER_RECYCLE_MB,
    faceWorkerIdleRecycleSeconds: vars.FACE_WORKER_IDLE_RECYCLE_SECONDS,
  };
}

/** The verifier's section of the configuration (its manifest's `config`, loaded with the rest at start). */
export function verifierConfig(config: AppConfig): VerifierConfig {
  const section = config.schemes['document-verifier'] as VerifierConfig | undefined;
  if (!section) throw new Error('the document verifier configuration section was not loaded: load the configuration with loadServiceConfig');
  return section;
}
