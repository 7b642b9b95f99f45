import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ExclusiveJobs } from '../database/exclusive-jobs.js';
import { CibaRequestsService } from './requests/ciba-requests.service.js';

export const CIBA_PURGE_JOB = 'ciba-purge';
const PURGE_MS = 10 * 60_000;
/** Delivered callbacks are kept an hour (a push row holds sealed tokens: not longer than needed to look into a delivery). */
const KEEP_DELIVERED_SECONDS = 3600;
/** Given-up callbacks are kept a week, for the merchant's support to see why (last_error). */
const KEEP_FAILED_SECONDS = 7 * 86400;

/**
 * Deletes what CIBA no longer needs every ten minutes, on one instance at a time (each DELETE is safe to run twice):
 * requests an hour past their expiry (until then a late poll still gets expired_token) and finished outbox rows.
 */
@Injectable()
export class CibaPurgeService implements OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    private readonly requests: CibaRequestsService,
    private readonly jobs: ExclusiveJobs,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.schedule(CIBA_PURGE_JOB, PURGE_MS, () => this.purge());
  }

  /** What the schedule runs: the purge unless another instance (or this one) is running it. */
  scheduledPurge() {
    return this.jobs.run(CIBA_PURGE_JOB, () => this.purge());
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
