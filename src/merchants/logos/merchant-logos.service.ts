import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { MerchantLogoEntity } from './merchant-logo.entity.js';
import type { FetchedLogo } from './logo-fetcher.js';

export const LOGO_PATH = '/its/assets/logos';
const FOREIGN_KEY_VIOLATION = '23503';

/** Where the broker pages load a stored logo from: our own origin (CSP img-src 'self'). */
export const logoPath = (sha256: string): string => `${LOGO_PATH}/${sha256}`;

/** The stored logo images: written with the merchant change that registers them, read by the asset route. */
@Injectable()
export class MerchantLogosService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Same bytes, same row: a second merchant (or a re-fetch) with an identical image adds nothing. An upsert,
   * not "do nothing": it locks the row until the merchant naming it is saved, so a concurrent prune waits.
   */
  async store(tx: EntityManager, logo: FetchedLogo): Promise<void> {
    await tx
      .createQueryBuilder()
      .insert()
      .into(MerchantLogoEntity)
      .values({ sha256: logo.sha256, contentType: logo.type, bytes: logo.bytes, width: logo.width, height: logo.height })
      .orUpdate(['content_type'], ['sha256'])
      .execute();
  }

  /**
   * A logo no merchant names any more is deleted (after its merchant dropped or replaced it): it stops
   * being served. Browsers may keep their copy (it is immutable), which is harmless: the address is its hash.
   * Run after the merchant's change is committed; when another merchant took the same image meanwhile, the
   * foreign key refuses the delete and the image stays, as it should.
   */
  async pruneUnused(sha256: string | null): Promise<void> {
    if (!sha256) return;
    try {
      await this.dataSource.query(`DELETE FROM merchant_logos WHERE sha256 = $1 AND NOT EXISTS (SELECT 1 FROM merchants WHERE logo_sha256 = $1)`, [sha256]);
    } catch (e) {
      if ((e as { code?: string }).code !== FOREIGN_KEY_VIOLATION) throw e;
    }
  }

  find(sha256: string): Promise<MerchantLogoEntity | null> {
    return this.dataSource.getRepository(MerchantLogoEntity).findOneBy({ sha256 });
  }
}
