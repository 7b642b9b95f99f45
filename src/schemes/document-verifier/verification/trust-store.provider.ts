import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { TrustStore } from '@identity-broker/icao9303';
import { logger } from '../../../common/logging/logger.js';
import { ConfigError } from '../../../config/app-config.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { verifierConfig } from '../config/verifier-config.js';
import { SpecimenAuthorityService } from '../specimen/specimen-authority.service.js';
import { loadTrustFiles, unreadableTrustFiles } from './trust-files.js';

/**
 * The environment's trust anchors for passive authentication: configured CSCA files and folders, master
 * lists (signature checked against their anchors) and CRLs; customer-test adds its specimen CSCA.
 * Production builds it at start and refuses to start when a trust file is missing, unreadable or not what its
 * variable says (a wrong path is found by the deployment, not by the first person to verify a document).
 * customer-test builds it on first use (its specimen CSCA lives in the database) and only warns at start.
 */
@Injectable()
export class TrustStoreProvider implements OnModuleInit {
  private store?: Promise<TrustStore>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly specimen: SpecimenAuthorityService,
  ) {}

  /**
   * In the start-up of the trust store, not in loadConfig: config parsing stays pure, so the configuration tests and
   * the deployment manifests' placeholder paths (/etc/identity-broker/trust) are judged as configuration only.
   */
  async onModuleInit(): Promise<void> {
    if (this.config.isProduction) {
      const store = await this.build();
      this.store = Promise.resolve(store);
      return;
    }
    for (const problem of unreadableTrustFiles(verifierConfig(this.config).trust))
      logger.warn({ event: 'trust_file_unreadable' }, `${problem}: the document verifier's trust store will not load until it is fixed`);
  }

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

  /** Every bad trust file is named at once (ConfigError: main prints it like a bad variable, without a stack trace). */
  private async build(): Promise<TrustStore> {
    const { trust } = verifierConfig(this.config);
    const { store, problems } = loadTrustFiles(trust);
    if (problems.length) throw new ConfigError(problems);
    if (!this.config.isProduction) store.addCsca((await this.specimen.get()).csca.certificate);
    // Said where the operator reads at start too, not only by the alert: what an outdated CRL will do here.
    const consequence = this.config.isProduction
      ? `the documents it covers are refused ${trust.crlGraceHours} h after that`
      : 'customer-test accepts the documents it covers, with a warning';
    for (const { crl, signer } of store.revocationLists())
      if (crl.nextUpdate && crl.nextUpdate.getTime() < Date.now())
        logger.warn(
          { event: 'crl_outdated', csca: signer.subject, nextUpdate: crl.nextUpdate },
          `the CRL of "${signer.subject}" is past its nextUpdate: ${consequence}`,
        );
    return store;
  }
}
