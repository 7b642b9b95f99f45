import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RLWrapperTimeouts } from 'rate-limiter-flexible';

/** A key's count in its current window, and how long until the window ends. */
export interface WindowCount {
  count: number;
  resetInMs: number;
}

export interface RateLimitStore {
  /** Counts one request for `key` and answers the window's count so far. */
  hit(key: string): Promise<WindowCount>;
}

/**
 * Fixed windows counted by rate-limiter-flexible: in this process (no REDIS_URL), or in Redis, where every
 * instance counts into the same window (its INCR and expiry run as one script). The limits differ per bucket and
 * are compared by the caller, so the library is asked to count only: its points are unbounded and it never refuses.
 */
const COUNT_ONLY = Number.MAX_SAFE_INTEGER;

class CountingStore implements RateLimitStore {
  constructor(private readonly limiter: RateLimiterAbstract | RLWrapperTimeouts) {}

  async hit(key: string): Promise<WindowCount> {
    const counted = await this.limiter.consume(key, 1);
    return { count: counted.consumedPoints, resetInMs: counted.msBeforeNext };
  }
}

export function memoryRateLimitStore(windowMs: number): RateLimitStore {
  return new CountingStore(new RateLimiterMemory({ points: COUNT_ONLY, duration: windowMs / 1000 }));
}

/**
 * Shared across instances through Redis (REDIS_URL). The answer is bounded in time, so a slow Redis never holds a
 * request, and a Redis that is not connected fails at once (the caller lets the request through).
 */
export function redisRateLimitStore(redis: Redis, prefix: string, windowMs: number, timeoutMs = 250): RateLimitStore {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    // The library joins prefix and key with ':'; our prefixes end with it already.
    keyPrefix: prefix.replace(/:$/, ''),
    points: COUNT_ONLY,
    duration: windowMs / 1000,
    rejectIfRedisNotReady: true,
  });
  return new CountingStore(new RLWrapperTimeouts({ limiter, timeoutMs }));
}
