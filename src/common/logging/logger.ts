import type { LoggerService } from '@nestjs/common';
import { pino } from 'pino';

/**
 * Structured JSON logs. Anything that could carry a secret or personal data is redacted by path as a
 * second line of defence; the first is that callers never log request bodies, query strings or tokens.
 */
type LogSink = (line: string) => void;
const sinks = new Set<LogSink>();

/** Every line goes to stdout; tests may also listen (to prove what the logs never contain). */
const destination = {
  write(line: string): void {
    for (const sink of sinks) sink(line);
    process.stdout.write(line);
  },
};

export function addLogSink(sink: LogSink): () => void {
  sinks.add(sink);
  return () => sinks.delete(sink);
}

export const logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { service: 'identity-broker' },
  redact: {
    paths: [
      '*.authorization', '*.Authorization', '*.client_secret', '*.password', '*.token', '*.access_token',
      '*.id_token', '*.refresh_token', '*.code', '*.code_verifier', '*.cookie', '*.secret', 'req.headers',
    ],
    censor: '[redacted]',
  },
}, destination);

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
  error(message: unknown, trace?: string, context?: string) { logger.error({ context, trace }, String(message)); }
  warn(message: unknown, context?: string) { logger.warn({ context }, String(message)); }
  debug(message: unknown, context?: string) { logger.debug({ context }, String(message)); }
  verbose(message: unknown, context?: string) { logger.trace({ context }, String(message)); }
}
