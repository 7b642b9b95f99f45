import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { MerchantLogoEntity } from './merchant-logo.entity.js';
import type { FetchedLogo } from './logo-fetcher.js';

export const LOGO_PATH = '/its/assets/logos';

/** Where the broker pages load a stored logo from: our own origin (CSP img-src 'self'). */
export const logoPath = (sha256: string): string => `${LOGO_PATH}/${sha256}`;

/** The stored logo images: written with the merchant change that registers them, read by the asset route. */
@Injectable()
export class MerchantLogosService {
  constructor(private readonly dataSource: DataSource) {}

  /** Same bytes, same row: a second merchant (or a re-fetch) with an identical image adds nothing. */
  async store(tx: EntityManager, logo: FetchedLogo): Promise<void> {
    await tx
      .createQueryBuilder()
      .insert()
      .into(MerchantLogoEntity)
      .values({ sha256: logo.sha256, contentType: logo.type, bytes: logo.bytes, width: logo.width, height: logo.height })
      .orIgnore()
      .execute();
  }

  /**
   * A logo no merchant names any more is deleted (after its merchant dropped or replaced it): it stops
   * being served. Browsers may keep their copy (it is immutable), which is harmless: the address is its hash.
   */
  async pruneUnused(tx: EntityManager, sha256: string | null): Promise<void> {
    if (!sha256) return;
    await tx.query(`DELETE FROM merchant_logos WHERE sha256 = $1 AND NOT EXISTS (SELECT 1 FROM merchants WHERE logo_sha256 = $1)`, [sha256]);
  }

  find(sha256: string): Promise<MerchantLogoEntity | null> {
    return this.dataSource.getRepository(MerchantLogoEntity).findOneBy({ sha256 });
  }
}
