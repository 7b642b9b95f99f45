import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';
import { emptyToUndefined, toBool, toInt } from './environment-transforms.js';

export const APP_ENVS = ['customer-test', 'production'] as const;
export type AppEnv = (typeof APP_ENVS)[number];
/** The issuer named on evidence reports when OPERATOR_NAME is not set. */
export const DEFAULT_OPERATOR_NAME = 'Identity broker';

/**
 * The environment as the process receives it, validated once at start (immich style).
 * Property names are the environment variable names so that every error names the variable. The schemes' variables
 * are their configuration sections' (loadConfig reports their problems in the same list).
 */
export class EnvironmentVariables {
  @IsIn(APP_ENVS, { message: 'must be customer-test or production' })
  APP_ENV: AppEnv = 'customer-test';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/, { message: 'must be an http(s) URL without query or fragment' })
  BASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  DATA_DIR = './data';

  @Transform(toBool)
  @IsBoolean({ message: 'must be true or false' })
  ALLOW_EMBEDDED_DATABASE = false;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9+/_-]{43}=?$/, { message: 'must be 32 random bytes, base64 encoded' })
  DATA_ENCRYPTION_KEY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,32}$/, { message: 'must be 1-32 letters, digits, - or _' })
  DATA_ENCRYPTION_KEY_ID = 'k1';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^([A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/_-]{43}=?)(,[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/_-]{43}=?)*$/, {
    message: 'must be a comma-separated list of keyId:base64key',
  })
  DATA_ENCRYPTION_OLD_KEYS?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @MinLength(32, { message: 'must be at least 32 characters' })
  ADMIN_API_TOKEN?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[^,\s]{32,}(,[^,\s]{32,})*$/, { message: 'must be a comma-separated list of secrets of at least 32 characters' })
  COOKIE_KEYS?: string;

  @Transform(toBool)
  @IsBoolean({ message: 'must be true or false' })
  TRUST_PROXY = false;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @Transform(toInt)
  @IsInt()
  @Min(3600)
  @Max(89 * 86400, { message: 'must be at most 89 days (verification data is kept at most 90 days)' })
  REFRESH_TOKEN_TTL_SECONDS = 14 * 86400;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(30 * 86400)
  KEY_ROTATION_OVERLAP_SECONDS = 86400;

  /** How often each instance reloads the signing keys; a rotated key is published for two of these before it signs. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(600)
  KEY_RELOAD_SECONDS = 60;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(600, { message: 'must be at most 600 (codes are short-lived, RFC 6749 §4.1.2)' })
  AUTHORIZATION_CODE_TTL_SECONDS = 60;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(60)
  CIBA_POLL_INTERVAL_SECONDS = 5;

  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(3600)
  CIBA_MAX_EXPIRY_SECONDS = 600;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  CIBA_OUTBOX_SWEEP_SECONDS = 30;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[^,\s]{32,}$/, { message: 'must be a secret of at least 32 characters' })
  SUBJECT_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[^,\s]{32,}$/, { message: 'must be a secret of at least 32 characters' })
  PAIRWISE_SECRET?: string;

  /** RFC 9449 §8: with it, every DPoP proof must carry a nonce of this service (the same secret on every instance). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[^,\s]{32,}$/, { message: 'must be a secret of at least 32 characters' })
  DPOP_NONCE_SECRET?: string;

  /** PAdES signing of auth files (spec 4.8): the signer's private key, PEM (PKCS#8, RSA or EC). With PADES_CERTIFICATE_CHAIN_FILE. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  PADES_SIGNING_KEY_FILE?: string;

  /** The signer's certificate first, then its intermediates (PEM, concatenated). With PADES_SIGNING_KEY_FILE. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  PADES_CERTIFICATE_CHAIN_FILE?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// URL' })
  REDIS_URL?: string;

  /** Prefix of every key the service writes in Redis (several services, or test runs, can share one Redis). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9:_.-]{1,64}$/, { message: 'must be 1-64 letters, digits, or : _ . -' })
  REDIS_KEY_PREFIX = 'broker:';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/[^\s"<>]+$/, { message: 'must be an http(s) URL' })
  PRIVACY_NOTICE_URL?: string;

  /** Who issues the evidence reports (auth files), printed on every report: the operator's legal or trading name. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(?=.*\S)[^\p{Cc}\p{Cf}]{1,120}$/u, { message: 'must be 1-120 characters, no control characters' })
  OPERATOR_NAME = DEFAULT_OPERATOR_NAME;
}

export const ENVIRONMENT_VARIABLE_NAMES = [
  'APP_ENV',
  'PORT',
  'BASE_URL',
  'DATABASE_URL',
  'DATA_DIR',
  'ALLOW_EMBEDDED_DATABASE',
  'DATA_ENCRYPTION_KEY',
  'DATA_ENCRYPTION_KEY_ID',
  'DATA_ENCRYPTION_OLD_KEYS',
  'ADMIN_API_TOKEN',
  'COOKIE_KEYS',
  'TRUST_PROXY',
  'LOG_LEVEL',
  'REDIS_URL',
  'REDIS_KEY_PREFIX',
  'REFRESH_TOKEN_TTL_SECONDS',
  'KEY_ROTATION_OVERLAP_SECONDS',
  'KEY_RELOAD_SECONDS',
  'AUTHORIZATION_CODE_TTL_SECONDS',
  'CIBA_POLL_INTERVAL_SECONDS',
  'CIBA_MAX_EXPIRY_SECONDS',
  'CIBA_OUTBOX_SWEEP_SECONDS',
  'SUBJECT_SECRET',
  'PAIRWISE_SECRET',
  'DPOP_NONCE_SECRET',
  'PRIVACY_NOTICE_URL',
  'OPERATOR_NAME',
  'PADES_SIGNING_KEY_FILE',
  'PADES_CERTIFICATE_CHAIN_FILE',
] as const satisfies readonly (keyof EnvironmentVariables)[];

/** A start-up failure (the process stops with it before it listens): no client ever reads one, so it needs no AppError. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads the raw environment, adding a problem naming each bad variable to `problems` (loadConfig throws them together). */
export function readEnvironment(env: Record<string, string | undefined>, problems: string[]): EnvironmentVariables {
  const picked = Object.fromEntries(ENVIRONMENT_VARIABLE_NAMES.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
  const vars = plainToInstance(EnvironmentVariables, picked);
  problems.push(...validateSync(vars, { skipMissingProperties: false }).map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`));
  return vars;
}
