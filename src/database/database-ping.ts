import { Inject, Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/load-config.js';

/**
 * Whether the database answers a trivial query within DATABASE_PING_TIMEOUT_MS, for /health and /health/ready. A
 * stuck pool (its connections held, or a server that no longer answers) would make a plain `SELECT 1` wait with it,
 * and a probe that never answers is one an orchestrator cannot read. At most one ping is in flight: while an earlier
 * one is still unanswered, probes wait on it (within their bound) instead of queueing more queries behind it.
 */
@Injectable()
export class DatabasePing {
  private inFlight?: Promise<boolean>;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async answers(): Promise<boolean> {
    const ping = (this.inFlight ??= this.dataSource
      .query('SELECT 1')
      .then(
        () => true,
        () => false,
      )
      .finally(() => (this.inFlight = undefined)));
    const timeout = new AbortController();
    try {
      return await Promise.race([ping, sleep(this.config.ops.databasePingTimeoutMs, false, { signal: timeout.signal, ref: false })]);
    } finally {
      timeout.abort();
    }
  }
}
