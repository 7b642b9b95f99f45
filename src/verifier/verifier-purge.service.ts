import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { logger } from '../common/logging/logger.js';
import { VerificationRecordsService } from './records/verification-records.service.js';
import { VerificationSessionsService } from './session/verification-sessions.service.js';

const EVERY_MS = 15 * 60_000;

/** Scheduled deletion: records past retention (spec 1.9) and ended sessions. */
@Injectable()
export class VerifierPurgeService implements OnModuleInit, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly records: VerificationRecordsService,
    private readonly sessions: VerificationSessionsService,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.run().catch((err) => logger.error({ err }, 'verifier purge failed')), EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async run(): Promise<{ records: number; sessions: number }> {
    const records = await this.records.purge();
    const sessions = await this.sessions.purge();
    if (records || sessions) logger.info({ records, sessions }, 'verifier data purged');
    return { records, sessions };
  }
}
