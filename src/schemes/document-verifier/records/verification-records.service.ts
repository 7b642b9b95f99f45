import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { SecretBox } from '../../../common/crypto/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { verifierConfig } from '../config/verifier-config.js';
import type { VerificationRecordData } from '../../../broker/spi/document-evidence/verification-record.js';
import { VerificationRecordEntity } from './verification-record.entity.js';

const context = (id: string) => `verification-record:${id}`;

@Injectable()
export class VerificationRecordsService {
  private readonly repo: Repository<VerificationRecordEntity>;

  constructor(
    dataSource: DataSource,
    private readonly secretBox: SecretBox,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.repo = dataSource.getRepository(VerificationRecordEntity);
  }

  async store(id: string, data: VerificationRecordData, manager?: EntityManager): Promise<void> {
    const now = this.clock.now();
    const sealed = this.secretBox.encrypt(JSON.stringify(data), context(id));
    await (manager?.getRepository(VerificationRecordEntity) ?? this.repo).insert({
      id,
      clientId: data.clientId,
      sealed,
      keyId: this.secretBox.keyIdOf(sealed),
      createdAt: now,
      deleteAfter: new Date(now.getTime() + verifierConfig(this.config).retentionDays * 86400_000),
    });
  }

  async get(id: string): Promise<VerificationRecordData | undefined> {
    const row = await this.repo.findOneBy({ id });
    if (!row || row.deleteAfter <= this.clock.now()) return undefined;
    return JSON.parse(this.secretBox.decryptText(row.sealed, context(id))) as VerificationRecordData;
  }

  /**
   * The record of `id` for the merchant `clientId` only. Owner and retention are part of the query, so another
   * merchant's record, an unknown id and a record past retention all come back as no row, and nothing is
   * decrypted for any of them: the refusal takes one path and one time whether or not the id exists.
   */
  async getForMerchant(id: string, clientId: string): Promise<VerificationRecordData | undefined> {
    const row = await this.repo.findOneBy({ id, clientId, deleteAfter: MoreThan(this.clock.now()) });
    if (!row) return undefined;
    const data = JSON.parse(this.secretBox.decryptText(row.sealed, context(id))) as VerificationRecordData;
    // The sealed copy names the same merchant unless the row was tampered with; never hand it out then.
    return data.clientId === clientId ? data : undefined;
  }

  /** Erasure ahead of retention (the operator's, on the person's request): true when there was a record. */
  async erase(id: string): Promise<boolean> {
    return ((await this.repo.delete({ id })).affected ?? 0) > 0;
  }

  /** Permanent deletion of records past retention (spec 1.9: at most 90 days). */
  async purge(): Promise<number> {
    const result = await this.repo.delete({ deleteAfter: LessThanOrEqual(this.clock.now()) });
    return result.affected ?? 0;
  }
}
