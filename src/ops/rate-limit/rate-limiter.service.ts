import { Inject, Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error.js';
import { logger } from '../../common/logging/logger.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { REDIS, type RedisHandle } from '../../redis/redis.module.js';
import { OpsMetrics } from '../metrics/ops-metrics.service.js';
import { type LimitTarget, limitTargets } from './rate-limit-targets.js';
import { memoryRateLimitStore, type RateLimitStore, redisRateLimitStore } from './rate-limit-store.js';

/**
 * Rate limits in front of the engine and the app API (docs/operations.md): fixed windows per client IP, merchant
 * or verification session, in Redis when REDIS_URL is set (every instance counts into the same window), else in
 * this process. A store that fails lets the request through (a limiter must not take the service down) and says
 * so in one log line per outage.
 */
@Injectable()
export class RateLimiter {
  private readonly store: RateLimitStore;
  private storeDown = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) redis: RedisHandle,
    private readonly metrics: OpsMetrics,
  ) {
    const windowMs = config.ops.rateLimits.windowSeconds * 1000;
    this.store = redis ? redisRateLimitStore(redis, config.ops.rateLimits.redisPrefix, windowMs) : memoryRateLimitStore(windowMs);
  }

  middleware() {
    const { enabled, limits } = this.config.ops.rateLimits;
    return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
      if (!enabled) return next();
      try {
        for (const target of await limitTargets(req)) {
          const limit = limits[target.bucket];
          if (limit === 0) continue;
          const counted = await this.count(`${target.bucket}:${target.key}`);
          if (counted && counted.count > limit) return next(this.refusal(target, Math.max(1, Math.ceil(counted.resetInMs / 1000))));
        }
      } catch (err) {
        // Never a 500 from the limiter: whatever went wrong, the request goes on to be answered.
        logger.error({ err }, 'rate limit check failed');
      }
      next();
    };
  }

  /** The window's count, or undefined when the store did not answer (fail open). */
  private async count(key: string) {
    try {
      const counted = await this.store.hit(key);
      if (this.storeDown) logger.info('rate limiter store available again');
      this.storeDown = false;
      return counted;
    } catch (err) {
      this.metrics.rateLimiterErrors.inc();
      if (!this.storeDown)
        logger.warn({ err: { message: (err as Error).message } }, 'rate limiter store unavailable: requests are not limited until it is back');
      this.storeDown = true;
      return undefined;
    }
  }

  /**
   * temporarily_unavailable: the OAuth error code (RFC 6749 §4.1.2.1) for "retry later"; the app API uses it too. A
   * browser at the authorization endpoint gets the error page instead (the renderer's choice), saying too_many_requests.
   */
  private refusal(target: LimitTarget, retryAfter: number): AppError {
    this.metrics.rateLimited.inc({ bucket: target.bucket });
    const refusal = new AppError(429, 'temporarily_unavailable', `too many requests; retry after ${retryAfter} seconds`);
    refusal.headers = { 'Retry-After': String(retryAfter), 'Cache-Control': 'no-store' };
    refusal.pageCode = 'too_many_requests';
    return refusal;
  }
}
