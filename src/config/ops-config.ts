import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Matches, Max, Min, validateSync } from 'class-validator';
import { ConfigError } from './app-config.js';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value);
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : value === 'true' || value === '1' || value === 'on'
      ? true
      : value === 'false' || value === '0' || value === 'off'
        ? false
        : value;
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * The operations variables (issue 15: metrics, readiness, rate limits, shutdown), validated with the rest
 * of the environment. Kept apart from app-config.ts so that the feature's settings read as one block.
 * Limits count requests per window; 0 switches one limit off.
 */
export class OpsEnvironmentVariables {
  /** Bearer token that opens /metrics on the service's port; unset: /metrics answers 404 there. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\S{32,}$/, { message: 'must be a secret of at least 32 characters' })
  METRICS_TOKEN?: string;

  /** A second port serving only /metrics, /health/live and /health/ready (keep it off the public network). */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(65535)
  METRICS_PORT?: number;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(600)
  SHUTDOWN_GRACE_SECONDS = 25;

  /** /health and /health/ready: a database that does not answer a trivial query within this bound counts as down. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  DATABASE_PING_TIMEOUT_MS = 2000;

  /** Node's server.requestTimeout: a request whose headers and body have not all arrived by then is answered 408 and closed. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(600)
  HTTP_REQUEST_TIMEOUT_SECONDS = 60;

  /** Node's server.headersTimeout: the request line and headers must have arrived by then (a slowloris sends them forever). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(600)
  HTTP_HEADERS_TIMEOUT_SECONDS = 10;

  /** Node's server.keepAliveTimeout: an idle keep-alive connection is closed after this long. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(600)
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS = 65;

  /** Requests of one client address whose body has not all arrived: each holds a connection while its client trickles. 0: no bound. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000)
  HTTP_UNFINISHED_BODIES_PER_CLIENT = 50;

  /** App long polls (requests/pending with wait_seconds) one client address may have held at once. 0: no bound. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000)
  LONG_POLLS_PER_CLIENT = 100;

  @Transform(toBool)
  @IsBoolean({ message: 'must be on or off' })
  RATE_LIMITS = true;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  RATE_LIMIT_WINDOW_SECONDS = 60;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_AUTHORIZATION = 600;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_APP_API = 600;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_TOKEN = 1200;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_CIBA = 600;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_FACE = 30;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9:_.-]{1,64}$/, { message: 'must be 1-64 letters, digits or : _ . -' })
  RATE_LIMIT_REDIS_PREFIX = 'broker:ratelimit:';
}

export const OPS_VARIABLE_NAMES = [
  'METRICS_TOKEN',
  'METRICS_PORT',
  'SHUTDOWN_GRACE_SECONDS',
  'DATABASE_PING_TIMEOUT_MS',
  'HTTP_REQUEST_TIMEOUT_SECONDS',
  'HTTP_HEADERS_TIMEOUT_SECONDS',
  'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS',
  'HTTP_UNFINISHED_BODIES_PER_CLIENT',
  'LONG_POLLS_PER_CLIENT',
  'RATE_LIMITS',
  'RATE_LIMIT_WINDOW_SECONDS',
  'RATE_LIMIT_AUTHORIZATION',
  'RATE_LIMIT_APP_API',
  'RATE_LIMIT_TOKEN',
  'RATE_LIMIT_CIBA',
  'RATE_LIMIT_FACE',
  'RATE_LIMIT_REDIS_PREFIX',
] as const satisfies readonly (keyof OpsEnvironmentVariables)[];

/** What a limit applies to: per client IP, per merchant (client_id), per verification session. */
export const RATE_LIMIT_BUCKETS = ['authorization', 'app_api', 'token', 'ciba', 'face'] as const;
export type RateLimitBucket = (typeof RATE_LIMIT_BUCKETS)[number];

export interface OpsConfig {
  metrics: { token?: string; port?: number };
  shutdownGraceSeconds: number;
  databasePingTimeoutMs: number;
  /** Bounds on what a slow client may hold (Node's http server timeouts), seconds. */
  http: { requestTimeoutSeconds: number; headersTimeoutSeconds: number; keepAliveTimeoutSeconds: number };
  /** What one client address (req.ip, which follows TRUST_PROXY) may hold at once; 0: no bound. */
  perClient: { unfinishedBodies: number; longPolls: number };
  rateLimits: {
    enabled: boolean;
    windowSeconds: number;
    /** Requests per window; 0: no limit for that bucket. */
    limits: Record<RateLimitBucket, number>;
    redisPrefix: string;
  };
}

export function loadOpsConfig(env: Record<string, string | undefined>): OpsConfig {
  const picked = Object.fromEntries(OPS_VARIABLE_NAMES.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
  const vars = plainToInstance(OpsEnvironmentVariables, picked);
  const problems = validateSync(vars).map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
  if (problems.length) throw new ConfigError(problems);
  return {
    metrics: { token: vars.METRICS_TOKEN, port: vars.METRICS_PORT },
    shutdownGraceSeconds: vars.SHUTDOWN_GRACE_SECONDS,
    databasePingTimeoutMs: vars.DATABASE_PING_TIMEOUT_MS,
    http: {
      requestTimeoutSeconds: vars.HTTP_REQUEST_TIMEOUT_SECONDS,
      headersTimeoutSeconds: vars.HTTP_HEADERS_TIMEOUT_SECONDS,
      keepAliveTimeoutSeconds: vars.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS,
    },
    perClient: { unfinishedBodies: vars.HTTP_UNFINISHED_BODIES_PER_CLIENT, longPolls: vars.LONG_POLLS_PER_CLIENT },
    rateLimits: {
      enabled: vars.RATE_LIMITS,
      windowSeconds: vars.RATE_LIMIT_WINDOW_SECONDS,
      limits: {
        authorization: vars.RATE_LIMIT_AUTHORIZATION,
        app_api: vars.RATE_LIMIT_APP_API,
        token: vars.RATE_LIMIT_TOKEN,
        ciba: vars.RATE_LIMIT_CIBA,
        face: vars.RATE_LIMIT_FACE,
      },
      redisPrefix: vars.RATE_LIMIT_REDIS_PREFIX,
    },
  };
}
