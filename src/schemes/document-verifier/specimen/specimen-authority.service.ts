import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  createSpecimenAuthority,
  type SpecimenAuthority,
  exportSpecimenAuthority,
  restoreSpecimenAuthority,
  type ExportedSpecimenAuthority,
} from '@identity-broker/icao9303';
import { SecretBox } from '../../../common/crypto/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { SpecimenAuthorityEntity } from './specimen-authority.entity.js';

const ID = 'customer-test';
const CONTEXT = 'specimen-authority';
const ADVISORY_LOCK = 734_002;

type Stored = Record<keyof ExportedSpecimenAuthority, string>;

/**
 * customer-test's specimen CSCA and document signer: generated once, sealed in the database, shared by
 * every instance. Documents it signs verify only in customer-test, whose trust store adds this CSCA.
 */
@Injectable()
export class SpecimenAuthorityService {
  private authority?: Promise<SpecimenAuthority>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get(): Promise<SpecimenAuthority> {
    if (this.config.isProduction) throw new Error('there is no specimen authority in production');
    this.authority ??= this.loadOrCreate();
    return this.authority;
  }

  private async loadOrCreate(): Promise<SpecimenAuthority> {
    return this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
      const repo = tx.getRepository(SpecimenAuthorityEntity);
      const row = await repo.findOneBy({ id: ID });
      if (row) {
        const stored = JSON.parse(this.secretBox.decryptText(row.sealed, CONTEXT)) as Stored;
        return restoreSpecimenAuthority({
          country: stored.country,
          keyType: stored.keyType as ExportedSpecimenAuthority['keyType'],
          cscaCertificate: Buffer.from(stored.cscaCertificate, 'base64'),
          cscaPrivateKey: Buffer.from(stored.cscaPrivateKey, 'base64'),
          documentSignerCertificate: Buffer.from(stored.documentSignerCertificate, 'base64'),
          documentSignerPrivateKey: Buffer.from(stored.documentSignerPrivateKey, 'base64'),
        });
      }
      const authority = await createSpecimenAuthority({ country: 'UT', name: 'Customer-test specimen', cscaValidityYears: 15, dsValidityYears: 10 });
      const exported = exportSpecimenAuthority(authority);
      const stored = Object.fromEntries(Object.entries(exported).map(([k, v]) => [k, v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v]));
      await repo.insert({ id: ID, sealed: this.secretBox.encrypt(JSON.stringify(stored), CONTEXT) });
      return authority;
    });
  }
}
