import { Inject, Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { TrustStore } from '../../../libs/icao9303/src/index.js';
import { logger } from '../../common/logging/logger.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { SpecimenAuthorityService } from '../specimen/specimen-authority.service.js';

/**
 * The environment's trust anchors for passive authentication: configured CSCA files and folders, master
 * lists (signature checked against their anchors) and CRLs; customer-test adds its specimen CSCA.
 * Built once, on first use, and kept once built.
 */
@Injectable()
export class TrustStoreProvider {
  private store?: Promise<TrustStore>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly specimen: SpecimenAuthorityService,
  ) {}

  /** A build that failed (a trust file missing or invalid) is not kept: the next use tries again, after a fix. */
  get(): Promise<TrustStore> {
    this.store ??= this.build().catch((e: unknown) => {
      this.store = undefined;
      throw e;
    });
    return this.store;
  }

  /** The SHA-256 of customer-test's specimen CSCA (a chain ending there is a specimen document); none in production. */
  async specimenCscaFingerprint(): Promise<string | undefined> {
    return this.config.isProduction ? undefined : (await this.specimen.get()).csca.certificate.fingerprint;
  }

  private async build(): Promise<TrustStore> {
    const { trust } = this.config.verifier;
    const store = new TrustStore();
    for (const path of trust.cscaPaths) store.addCscaPath(path);
    const anchors = trust.masterListAnchors.map((p) => new Uint8Array(readFileSync(p)));
    for (const path of trust.masterLists) {
      const report = store.addMasterList(new Uint8Array(readFileSync(path)), anchors);
      logger.info({ masterList: path, report: summarise(report) }, 'master list loaded');
    }
    for (const path of trust.crls) store.addCrl(new Uint8Array(readFileSync(path)));
    if (!this.config.isProduction) store.addCsca((await this.specimen.get()).csca.certificate);
    return store;
  }
}

function summarise(report: unknown): unknown {
  if (!report || typeof report !== 'object') return report;
  const r = report as Record<string, unknown>;
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Array.isArray(v) ? v.length : v]));
}
