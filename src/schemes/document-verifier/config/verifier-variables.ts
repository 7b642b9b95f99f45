import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { emptyToUndefined, toInt } from '../../../config/environment-transforms.js';

export const FACE_ENGINES = ['face-api', 'onnx'] as const;
/** The verifier app's name when VERIFIER_APP_NAME is not set: the app this project builds. */
export const DEFAULT_VERIFIER_APP_NAME = 'Broker Verify';

/**
 * The document verifier's environment variables (sessions, liveness, retention, trust anchors, its app, the face
 * engine): its configuration section (verifier-config.ts) validates them, and the start names each problem in the one
 * list of the service's (loadConfig).
 */
export class DocumentVerifierVariables {
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(3600)
  VERIFIER_SESSION_TTL_SECONDS = 600;

  @Transform(toInt)
  @IsInt()
  @Min(15)
  @Max(600, { message: 'must be at most 600 (liveness data is valid only a few minutes)' })
  LIVENESS_WINDOW_SECONDS = 120;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(90, { message: 'must be at most 90 (spec 1.9)' })
  VERIFICATION_RETENTION_DAYS = 90;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(9)
  FACEMATCH_MIN_LEVEL_FOR_HIGH = 7;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  TRUST_CSCA_PATHS?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  TRUST_MASTERLISTS?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  TRUST_MASTERLIST_ANCHORS?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  TRUST_CRLS?: string;

  /**
   * Hours past a CRL's nextUpdate that it still counts as current: countries publish late and the PKD relays later.
   * Past them production refuses the documents the CRL covers (STATUS_BAD_COUNTRYSIGNERCHAIN); customer-test warns.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(720, { message: 'must be at most 720 (30 days; a CRL is issued at least every 90, 9303-12)' })
  TRUST_CRL_GRACE_HOURS = 48;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[a-z][a-z0-9+.-]*:\/\/\S+$/, { message: 'must be an absolute URL or app link' })
  VERIFIER_APP_LINK?: string;

  /** The verifier app's product name on the waiting page ("Open Broker Verify"). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(?=.*\S)[^\p{Cc}\p{Cf}]{1,40}$/u, { message: 'must be 1-40 characters, no control characters' })
  VERIFIER_APP_NAME = DEFAULT_VERIFIER_APP_NAME;

  /** The app's store pages, linked from the waiting page's help for a person without the app. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https:\/\/[^\s"<>]+$/, { message: 'must be an https URL' })
  VERIFIER_APP_STORE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https:\/\/[^\s"<>]+$/, { message: 'must be an https URL' })
  VERIFIER_PLAY_STORE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  FACE_CALIBRATION_FILE?: string;

  /** face-api (models inside its npm package) or onnx (an ArcFace-class recognition model at FACE_MODEL_PATH). */
  @IsIn(FACE_ENGINES, { message: 'must be face-api or onnx' })
  FACE_ENGINE: (typeof FACE_ENGINES)[number] = 'face-api';

  @Transform(emptyToUndefined)
  @ValidateIf((vars: DocumentVerifierVariables) => vars.FACE_ENGINE === 'onnx' || vars.FACE_MODEL_PATH !== undefined)
  @Matches(/\S/, { message: 'must be the path of the .onnx model when FACE_ENGINE=onnx' })
  FACE_MODEL_PATH?: string;

  /** Face verifications run at once per instance (each spreads its frames over the FACE_WORKERS threads). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(16)
  FACE_CONCURRENCY = 1;

  /**
   * Worker threads of the face engine, each with its own models and WASM heap (each thread adds about 330 MB of
   * RSS, bench:verify): independent frames of a verification run in parallel up to this many. Default: the
   * machine's cores, at most 2.
   */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(16)
  FACE_WORKERS?: number;

  /**
   * A face worker thread whose own memory (V8 heap plus its WASM heap, which never shrinks) passes this many MiB
   * after a call is replaced by a fresh one; 0: never. A warm thread is about 210 MiB, the SSD thread about 340
   * MiB after phone frames and 540-580 MiB once 1000x750 frames went through its padded passes.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65536)
  FACE_WORKER_RECYCLE_MB = 448;

  /**
   * A face worker thread idle this many seconds whose memory grew more than 32 MiB past what it cost fresh is
   * replaced too, so that after a burst the service's memory goes back to its floor; 0: never. A replacement loads
   * the models again (about 1 s of CPU on a thread, off any request).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86400)
  FACE_WORKER_IDLE_RECYCLE_SECONDS = 30;

  /** Face verifications that may wait for a slot; beyond that the app API answers 503 with Retry-After. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1000)
  FACE_MAX_QUEUE = 8;
}

/** The variables the section reads (docs/configuration.md, "Document verifier"). */
export const VERIFIER_VARIABLE_NAMES = [
  'VERIFIER_SESSION_TTL_SECONDS',
  'LIVENESS_WINDOW_SECONDS',
  'VERIFICATION_RETENTION_DAYS',
  'FACEMATCH_MIN_LEVEL_FOR_HIGH',
  'TRUST_CSCA_PATHS',
  'TRUST_MASTERLISTS',
  'TRUST_MASTERLIST_ANCHORS',
  'TRUST_CRLS',
  'TRUST_CRL_GRACE_HOURS',
  'VERIFIER_APP_LINK',
  'VERIFIER_APP_NAME',
  'VERIFIER_APP_STORE_URL',
  'VERIFIER_PLAY_STORE_URL',
  'FACE_CALIBRATION_FILE',
  'FACE_ENGINE',
  'FACE_MODEL_PATH',
  'FACE_CONCURRENCY',
  'FACE_MAX_QUEUE',
  'FACE_WORKERS',
  'FACE_WORKER_RECYCLE_MB',
  'FACE_WORKER_IDLE_RECYCLE_SECONDS',
] as const satisfies readonly (keyof DocumentVerifierVariables)[];
