import type { LoggerService } from '@nestjs/common';
import { pino } from 'pino';
import { serializeError } from './error-serializer.js';

/**
 * Structured JSON logs. Anything that could carry a secret or personal data is redacted by path as a
 * second line of defence; the first is that callers never log request bodies, query strings or tokens.
 */
type LogSink = (line: string) => void;
const sinks = new Set<LogSink>();

let captured = 0;

/** Every line goes to stdout, unless a test captures the lines (to prove what the logs never contain). */
const destination = {
  write(line: string): void {
    for (const sink of sinks) sink(line);
    if (captured === 0) process.stdout.write(line);
  },
};

/**
 * Hands every log line to `sink` until the returned function is called. With `capture`, the lines go
 * only to the sink, so a test that raises the level to look at the logs keeps the test output quiet.
 */
export function addLogSink(sink: LogSink, { capture = false } = {}): () => void {
  sinks.add(sink);
  if (capture) captured++;
  return () => {
    if (sinks.delete(sink) && capture) captured--;
  };
}

/**
 * Where secrets are known to sit, by precise path: a wildcard such as `*.code` would also hide the
 * error codes (ECONNREFUSED, SQLSTATE) that support needs. Callers never log bodies, query strings or
 * tokens; these paths are the second line of defence.
 */
const REDACTED_PATHS = [
  'req.headers',
  'req.query',
  'req.body',
  'headers.authorization',
  'headers.cookie',
  '*.authorization',
  '*.Authorization',
  '*.cookie',
  '*.client_secret',
  '*.secret',
  '*.password',
  '*.token',
  '*.access_token',
  '*.id_token',
  '*.refresh_token',
  '*.code_verifier',
  '*.session_token',
  '*.qr_token',
  '*.app_secret',
  '*.provisioning_code',
  '*.user_code',
  'params.code',
  'query.code',
  'body.code',
];

/**
 * The level is final once the configuration is validated (createApp calls setLogLevel); until then a
 * value pino does not know must not crash the process before validation can name the variable.
 */
const initialLevel = (level = 'info') => (level in pino.levels.values || level === 'silent' ? level : 'info');

export const logger = pino(
  {
    level: initialLevel(process.env.LOG_LEVEL),
    base: { service: 'identity-broker' },
    serializers: { err: serializeError, error: serializeError },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  },
  destination,
);

export function setLogLevel(level: string): void {
  logger.level = level;
}

const NOISY_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** Routes Nest's own log lines into the same JSON stream. */
export class JsonNestLogger implements LoggerService {
  log(message: unknown, context?: string) {
    // Nest's start-up chatter (one line per module and route) is only useful when debugging.
    if (context && NOISY_CONTEXTS.has(context)) logger.debug({ context }, String(message));
    else logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    logger.trace({ context }, String(message));
  }
}
