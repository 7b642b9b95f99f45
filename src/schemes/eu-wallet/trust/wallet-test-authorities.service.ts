import { Inject, Injectable } from '@nestjs/common';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestSigner, type TestSigner } from '@identity-broker/eu-wallet';
import { SecretBox } from '../../../common/crypto/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { WalletTestAuthorityEntity } from './wallet-test-authority.entity.js';

const ID = 'customer-test';
/** The test PID provider's issuer identifier. Authorities sealed before it had one issue without `iss` (issuerNamedBy). */
const TEST_PID_PROVIDER_ISS = 'https://pid-provider.test.invalid';
const CONTEXT = 'wallet-test-authorities';
const ADVISORY_LOCK = 734_026;

/** The three test signers of customer-test: who issues test PIDs, who issues test mDLs, and the service's request signer. */
export interface WalletTestAuthorities {
  pidProvider: TestSigner;
  iaca: TestSigner;
  requestSigner: TestSigner;
}

type StoredSigner = { chain: string[]; privateKey: string };

const store = (s: TestSigner): StoredSigner => ({
  chain: s.chain.map((c) => Buffer.from(c).toString('base64')),
  privateKey: s.privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
});

const restore = (s: StoredSigner): TestSigner => {
  const privateKey = createPrivateKey({ key: Buffer.from(s.privateKey, 'base64'), format: 'der', type: 'pkcs8' });
  const chain = s.chain.map((c) => new Uint8Array(Buffer.from(c, 'base64'))) as [Uint8Array, Uint8Array];
  return { chain, root: chain[1], privateKey, publicKey: createPublicKey(privateKey) };
};

/**
 * customer-test's wallet PKI: generated once, sealed in the database, shared by every instance (as the document
 * verifier's specimen authority is). Credentials it issues verify only in customer-test, whose trust lists add its
 * roots; production never loads it.
 */
@Injectable()
export class WalletTestAuthoritiesService {
  private authorities?: Promise<WalletTestAuthorities>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get(): Promise<WalletTestAuthorities> {
    if (this.config.isProduction) throw new Error('there are no wallet test authorities in production');
    this.authorities ??= this.loadOrCreate();
    return this.authorities;
  }

  private async loadOrCreate(): Promise<WalletTestAuthorities> {
    return this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
      const repo = tx.getRepository(WalletTestAuthorityEntity);
      const row = await repo.findOneBy({ id: ID });
      if (row) {
        const stored = JSON.parse(this.secretBox.decryptText(row.sealed, CONTEXT)) as Record<keyof WalletTestAuthorities, StoredSigner>;
        return { pidProvider: restore(stored.pidProvider), iaca: restore(stored.iaca), requestSigner: restore(stored.requestSigner) };
      }
      const host = new URL(this.config.baseUrl).hostname;
      const authorities: WalletTestAuthorities = {
        // Its SAN URI is the iss of its SD-JWT VCs (SD-JWT VC draft: the leaf names the issuer; issuer-binding.ts).
        pidProvider: await createTestSigner({
          rootName: 'Customer-test PID Provider CA',
          signerName: 'Customer-test PID Provider',
          uri: TEST_PID_PROVIDER_ISS,
          notAfter: years(10),
        }),
        iaca: await createTestSigner({ rootName: 'Customer-test IACA', signerName: 'Customer-test Document Signer', notAfter: years(10) }),
        requestSigner: await createTestSigner({
          rootName: 'Customer-test Relying Party CA',
          signerName: `Customer-test verifier ${host}`,
          dnsName: host,
          notAfter: years(10),
        }),
      };
      const stored = { pidProvider: store(authorities.pidProvider), iaca: store(authorities.iaca), requestSigner: store(authorities.requestSigner) };
      await repo.insert({ id: ID, sealed: this.secretBox.encrypt(JSON.stringify(stored), CONTEXT) });
      return authorities;
    });
  }
}

const years = (n: number) => new Date(Date.now() + n * 365 * 86_400_000);
