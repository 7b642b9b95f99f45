import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type FindOptionsSelect, LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { SecretBox } from '../../../common/crypto/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { verifierConfig } from '../config/verifier-config.js';
import type { VerificationRecordClaims, VerificationRecordData } from '../../../broker/spi/document-evidence/verification-record.js';
import { VerificationRecordEntity } from './verification-record.entity.js';
import {
  claimsContext,
  claimsOfWhole,
  imagesContext,
  joinRecord,
  splitRecord,
  type VerificationRecordImages,
  wholeRecordContext,
} from './verification-record-parts.js';

/** The columns a reader of the claims fetches: never the images' (tens of kilobytes), which only a fallback reads. */
const CLAIMS_COLUMNS = { id: true, clientId: true, sealedClaims: true, deleteAfter: true } satisfies FindOptionsSelect<VerificationRecordEntity>;

/**
 * The verification records of spec 1.9, sealed in two parts (verification-record-parts.ts): `get` and
 * `getForMerchant` unseal both (the evidence report shows the images), `getClaims` the claims only. Rows written
 * before the split hold the whole record in `sealed` and no `sealed_claims`: they are read whole, and left as they
 * are (a read never writes); retention deletes the last of them at most 90 days after the split.
 */
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
    const { claims, images } = splitRecord(data);
    const sealedClaims = this.secretBox.encrypt(JSON.stringify(claims), claimsContext(id));
    await (manager?.getRepository(VerificationRecordEntity) ?? this.repo).insert({
      id,
      clientId: data.clientId,
      sealedClaims,
      sealed: this.secretBox.encrypt(JSON.stringify(images), imagesContext(id)),
      // Both parts are sealed under the current key at once, so one key id names the key of both.
      keyId: this.secretBox.keyIdOf(sealedClaims),
      createdAt: now,
      deleteAfter: new Date(now.getTime() + verifierConfig(this.config).retentionDays * 86400_000),
    });
  }

  /** The whole record of `id` within retention, images included (the evidence report, support). */
  async get(id: string): Promise<VerificationRecordData | undefined> {
    const row = await this.repo.findOneBy({ id });
    if (!row || row.deleteAfter <= this.clock.now()) return undefined;
    return row.sealedClaims === null ? this.whole(row) : joinRecord(this.claimsOf(row), this.imagesOf(row));
  }

  /**
   * The record of `id` within retention without its images, which are neither fetched nor unsealed: what the login
   * and the credential issuer read.
   */
  async getClaims(id: string): Promise<VerificationRecordClaims | undefined> {
    const row = await this.repo.findOne({ select: CLAIMS_COLUMNS, where: { id, deleteAfter: MoreThan(this.clock.now()) } });
    if (!row) return undefined;
    if (row.sealedClaims !== null) return this.claimsOf(row);
    // A row from before the split: its claims are inside the whole record.
    const old = await this.repo.findOne({ select: { id: true, sealed: true }, where: { id } });
    return old ? claimsOfWhole(this.whole(old)) : undefined;
  }

  /**
   * The record of `id` for the merchant `clientId` only. Owner and retention are part of the query, so another
   * merchant's record, an unknown id and a record past retention all come back as no row, and nothing is
   * decrypted for any of them: the refusal takes one path and one time whether or not the id exists.
   */
  async getForMerchant(id: string, clientId: string): Promise<VerificationRecordData | undefined> {
    const row = await this.repo.findOneBy({ id, clientId, deleteAfter: MoreThan(this.clock.now()) });
    if (!row) return undefined;
    const claims = row.sealedClaims === null ? undefined : this.claimsOf(row);
    // The sealed copy names the same merchant unless the row was tampered with; never hand it out then (nor unseal its images).
    if (claims && claims.clientId !== clientId) return undefined;
    const data = claims ? joinRecord(claims, this.imagesOf(row)) : this.whole(row);
    return data.clientId === clientId ? data : undefined;
  }

  /** Erasure ahead of retention (the operator's, on the person's request): true when there was a record. Both parts are in the one row. */
  async erase(id: string): Promise<boolean> {
    return ((await this.repo.delete({ id })).affected ?? 0) > 0;
  }

  /** Permanent deletion of records past retention (spec 1.9: at most 90 days), both parts with their row. */
  async purge(): Promise<number> {
    const result = await this.repo.delete({ deleteAfter: LessThanOrEqual(this.clock.now()) });
    return result.affected ?? 0;
  }

  private claimsOf(row: Pick<VerificationRecordEntity, 'id' | 'sealedClaims'>): VerificationRecordClaims {
    return JSON.parse(this.secretBox.decryptText(row.sealedClaims!, claimsContext(row.id))) as VerificationRecordClaims;
  }

  private imagesOf(row: Pick<VerificationRecordEntity, 'id' | 'sealed'>): VerificationRecordImages {
    return JSON.parse(this.secretBox.decryptText(row.sealed, imagesContext(row.id))) as VerificationRecordImages;
  }

  private whole(row: Pick<VerificationRecordEntity, 'id' | 'sealed'>): VerificationRecordData {
    return JSON.parse(this.secretBox.decryptText(row.sealed, wholeRecordContext(row.id))) as VerificationRecordData;
  }
}
