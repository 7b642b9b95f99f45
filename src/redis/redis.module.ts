import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { logger } from '../common/logging/logger.js';

/** The shared Redis connection, or null when REDIS_URL is not set (everything then stays in the database). */
export const REDIS = Symbol('REDIS');
export type RedisHandle = Redis | null;

/**
 * One connection per instance, made to fail fast: with Redis unreachable a command is refused at once
 * (no offline queue, one retry) so that a flow in progress answers a clear "temporarily unavailable"
 * instead of hanging, while the client keeps reconnecting in the background and the service recovers by
 * itself when Redis is back (issue 15, point 6).
 */
export function connectRedis(url: string): Redis {
  // Loaded only when Redis is configured: an instance on the database alone never loads the client.
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const client = new RedisClient(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    lazyConnect: false,
  });
  let down = false;
  client.on('error', (err: Error) => {
    // One line per outage, not one per reconnect attempt.
    if (!down) logger.error({ err: { message: err.message } }, 'redis unavailable');
    down = true;
  });
  client.on('ready', () => {
    if (down) logger.info('redis available again');
    down = false;
  });
  return client;
}

class RedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: RedisHandle) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }
}

@Global()
@Module({})
export class RedisModule {
  static forRoot(url: string | undefined): DynamicModule {
    return {
      module: RedisModule,
      providers: [{ provide: REDIS, useFactory: () => (url ? connectRedis(url) : null) }, RedisLifecycle],
      exports: [REDIS],
    };
  }
}
