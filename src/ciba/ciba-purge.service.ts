import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { logger } from '../common/logging/logger.js';
import { CibaRequestsService } from './requests/ciba-requests.service.js';

const PURGE_MS = 10 * 60_000;
/** Delivered callbacks are kept an hour (a push row holds sealed tokens: not longer than needed to look into a delivery). */
const KEEP_DELIVERED_SECONDS = 3600;
/** Given-up callbacks are kept a week, for the merchant's support to see why (last_error). */
const KEEP_FAILED_SECONDS = 7 * 86400;

/**
 * Deletes what CIBA no longer needs, on every instance every ten minutes (each DELETE is safe to run twice):
 * requests an hour past their expiry (until then a late poll still gets expired_token) and finished outbox rows.
 */
@Injectable()
export class CibaPurgeService implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly requests: CibaRequestsService,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge().catch((err) => logger.error({ err }, 'ciba purge failed')), PURGE_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async purge(): Promise<{ requests: number; callbacks: number }> {
    const requests = await this.requests.purge();
    const result: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM ciba_outbox WHERE (state = 'delivered' AND delivered_at < now() - make_interval(secs => $1))
         OR (state = 'failed' AND created_at < now() - make_interval(secs => $2))`,
      [KEEP_DELIVERED_SECONDS, KEEP_FAILED_SECONDS],
    );
    return { requests, callbacks: Array.isArray(result) ? (result[1] ?? 0) : 0 };
  }
}
