import { Injectable, type OnModuleInit } from '@nestjs/common';
import { logger } from '../../common/logging/logger.js';
import { ExclusiveJobs } from '../../database/exclusive-jobs.js';
import { VerificationRecordsService } from './records/verification-records.service.js';
import { VerificationSessionsService } from './session/verification-sessions.service.js';

export const VERIFIER_PURGE_JOB = 'verifier-purge';
const EVERY_MS = 15 * 60_000;

/** Scheduled deletion, on one instance at a time: records past retention (spec 1.9) and ended sessions. */
@Injectable()
export class VerifierPurgeService implements OnModuleInit {
  constructor(
    private readonly records: VerificationRecordsService,
    private readonly sessions: VerificationSessionsService,
    private readonly jobs: ExclusiveJobs,
  ) {}

  onModuleInit(): void {
    this.jobs.schedule(VERIFIER_PURGE_JOB, EVERY_MS, () => this.run());
  }

  /** What the schedule runs: the purge unless another instance (or this one) is running it. */
  scheduledRun() {
    return this.jobs.run(VERIFIER_PURGE_JOB, () => this.run());
  }

  async run(): Promise<{ records: number; sessions: number }> {
    const records = await this.records.purge();
    const sessions = await this.sessions.purge();
    if (records || sessions) logger.info({ records, sessions }, 'verifier data purged');
    return { records, sessions };
  }
}
