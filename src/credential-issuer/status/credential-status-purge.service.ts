import { Injectable, type OnModuleInit } from '@nestjs/common';
import { logger } from '../../common/logging/logger.js';
import { ExclusiveJobs } from '../../database/exclusive-jobs.js';
import { IssuerKeysService } from '../keys/issuer-keys.service.js';
import { CredentialStatusService } from './credential-status.service.js';

export const CREDENTIAL_STATUS_PURGE_JOB = 'credential-status-purge';
const EVERY_MS = 15 * 60_000;

/**
 * The issuer's scheduled clean-up, on one instance at a time: credentials whose verification record is gone are
 * revoked; expired credentials leave their lists (credential-status.service.ts, purgeExpired); replaced test signers
 * are deleted with their sealed keys.
 */
@Injectable()
export class CredentialStatusPurgeService implements OnModuleInit {
  constructor(
    private readonly status: CredentialStatusService,
    private readonly keys: IssuerKeysService,
    private readonly jobs: ExclusiveJobs,
  ) {}

  onModuleInit(): void {
    this.jobs.schedule(CREDENTIAL_STATUS_PURGE_JOB, EVERY_MS, () => this.run());
  }

  /** What the schedule runs: the purge unless another instance (or this one) is running it. */
  scheduledRun() {
    return this.jobs.run(CREDENTIAL_STATUS_PURGE_JOB, () => this.run());
  }

  async run(): Promise<{ orphansRevoked: number; released: number; deleted: number; keys: number }> {
    const orphans = await this.status.revokeOrphans();
    const { released, deleted } = await this.status.purgeExpired();
    const keys = await this.keys.purgeRetired();
    const result = { orphansRevoked: orphans.revoked, released, deleted, keys };
    if (orphans.revoked || released || deleted || keys) logger.info(result, 'credential issuer state purged');
    return result;
  }
}
