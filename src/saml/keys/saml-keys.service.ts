import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import type { SamlSigningKey } from '../assertion/saml-signer.js';
import { newKeyAndCertificate } from '../../common/keys/self-signed.js';
import { SamlSigningKeyEntity } from './saml-signing-key.entity.js';

const ADVISORY_LOCK = 734_012;
const context = (kid: string) => `saml-signing-key:${kid}`;

/**
 * The one SAML signing key, made once (the advisory lock keeps two starting instances from both making
 * one) and shared by every instance. Rotation is not offered yet: merchants pin the certificate.
 */
@Injectable()
export class SamlKeysService implements OnModuleInit {
  private key?: SamlSigningKey;

  constructor(
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
      const repo = tx.getRepository(SamlSigningKeyEntity);
      if (await repo.exists()) return;
      const kid = `saml-${randomUUID()}`;
      const made = await newKeyAndCertificate(`CN=${new URL(this.config.baseUrl).hostname}, O=Identity broker SAML signing`);
      await repo.insert({ kid, privateKeySealed: this.secretBox.encrypt(made.privateKeyPem, context(kid)), certificatePem: made.certificatePem });
    });
  }

  async signingKey(): Promise<SamlSigningKey> {
    if (this.key) return this.key;
    const [row] = await this.dataSource.getRepository(SamlSigningKeyEntity).find({ order: { createdAt: 'ASC' }, take: 1 });
    this.key = { privateKeyPem: this.secretBox.decryptText(row.privateKeySealed, context(row.kid)), certificatePem: row.certificatePem };
    return this.key;
  }

  async certificatePem(): Promise<string> {
    return (await this.signingKey()).certificatePem;
  }
}
