import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { logger } from '../../common/logging/logger.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import type { PadesSigner } from './cades.js';
import { newTestSigner, signerFromPem, type SignerPem } from './pades-signer.js';
import { PadesTestSignerEntity } from './pades-test-signer.entity.js';

const ADVISORY_LOCK = 734_011;
const TEST_SIGNER_ID = 'customer-test';
const context = (id: string) => `pades-test-signer:${id}`;

/**
 * The PAdES signer of auth files (spec 4.8 generate-pades). From PADES_SIGNING_KEY_FILE and
 * PADES_CERTIFICATE_CHAIN_FILE when set; otherwise, in customer-test only, a test signer made once (the advisory
 * lock keeps two starting instances from both making one), its key sealed in the database like the other
 * generated secrets. Production without a configured signer has none: PDFs then go out unsigned, saying why.
 */
@Injectable()
export class PadesSignerService implements OnModuleInit {
  private signer?: Promise<PadesSigner | undefined>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const files = this.config.authFiles.pades;
    // A configured signer that cannot sign stops the start, so it is noticed at deployment, not by merchants.
    if (files)
      this.signer = Promise.resolve(
        await signerFromPem({ privateKeyPem: readFileSync(files.keyFile, 'utf8'), chainPem: readFileSync(files.chainFile, 'utf8') }, this.clock.now()),
      );
    else if (!this.config.isProduction) await this.ensureTestSigner();
  }

  /** The signer, or undefined when this deployment has none (or the stored one cannot be used: logged). */
  async current(): Promise<PadesSigner | undefined> {
    this.signer ??= this.loadTestSigner().catch((err: unknown) => {
      logger.error({ err }, 'PAdES test signer unusable: auth files go out unsigned');
      return undefined;
    });
    return this.signer;
  }

  private async ensureTestSigner(): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
      const repo = tx.getRepository(PadesTestSignerEntity);
      if (await repo.existsBy({ id: TEST_SIGNER_ID })) return;
      const made = await newTestSigner(new URL(this.config.baseUrl).hostname, this.clock.now());
      await repo.insert({
        id: TEST_SIGNER_ID,
        privateKeySealed: this.secretBox.encrypt(made.privateKeyPem, context(TEST_SIGNER_ID)),
        certificateChainPem: made.chainPem,
      });
    });
  }

  private async loadTestSigner(): Promise<PadesSigner | undefined> {
    if (this.config.isProduction) return undefined;
    const row = await this.dataSource.getRepository(PadesTestSignerEntity).findOneBy({ id: TEST_SIGNER_ID });
    if (!row) return undefined;
    const pem: SignerPem = { privateKeyPem: this.secretBox.decryptText(row.privateKeySealed, context(row.id)), chainPem: row.certificateChainPem };
    return signerFromPem(pem, this.clock.now());
  }
}
