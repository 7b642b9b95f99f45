import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { DataSource, type EntityManager, IsNull, LessThanOrEqual, MoreThan, Not } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { keySchedule } from '../../common/keys/key-schedule.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { loadFileSigner, type PreviousSigner } from './file-issuer-signer.js';
import { certificateThumbprint, createSignerCertificate, createTestRoot, type KeyAndCertificate } from './issuer-certificates.js';
import { IssuerKeyEntity } from './issuer-key.entity.js';
import type { IssuerSigner, PublishedIssuerKey } from './issuer-signer.js';
import { IssuerTestAuthorityEntity } from './issuer-test-authority.entity.js';

const ROOT_ID = 'customer-test';
const ROOT_CONTEXT = 'credential-issuer-test-authority';
const ROOT_NAME = 'Customer-test Credential Issuer CA';
const keyContext = (kid: string) => `credential-issuer-key:${kid}`;
const ADVISORY_LOCK = 734_041;
const DAY = 86_400_000;
/** The most signer keys the issuer's metadata lists (newest first): bounds its size whatever the number of rotations. */
export const MAX_PUBLISHED_KEYS = 50;

/** What the admin API lists of a signer: public facts only. */
export interface IssuerKeyView {
  kid: string;
  status: 'active' | 'retiring';
  subject: string;
  notAfter: Date;
  signsFrom: Date | null;
  retireAt: Date | null;
  createdAt: Date | null;
  source: 'database' | 'file';
}

const subjectOf = (der: Uint8Array) => new X509Certificate(der).subject.replace(/\n/g, ', ');

/**
 * The credential issuer's signer and the roots its credentials chain to. customer-test: a root generated once and
 * sealed in the database, signer certificates under it as sealed rows with the OpenID signing keys' schedule (a
 * rotation's signer signs at once: verifiers that trust the root need nothing published first, and those that read the
 * issuer's JWT VC Issuer Metadata see the new kid there as soon as this instance signs with it); every instance reloads the signer every VCI_ISSUER_KEY_RELOAD_SECONDS, so another instance's rotation is
 * picked up within that. production: the operator's key and chain, read once at start (file-issuer-signer.ts).
 */
@Injectable()
export class IssuerKeysService implements OnModuleInit {
  private fromFiles?: { signer: IssuerSigner; anchors: Uint8Array[]; previous: PreviousSigner[] };
  private cached?: { signer: Promise<IssuerSigner>; loadedAt: number };
  private root?: Promise<KeyAndCertificate>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Production reads its files at start, so a bad key or chain stops the start, named. */
  onModuleInit(): void {
    const { enabled, signer } = this.config.credentialIssuer;
    if (enabled && (this.config.isProduction || signer)) this.fromFiles = loadFileSigner(this.config.credentialIssuer);
  }

  current(): Promise<IssuerSigner> {
    if (this.fromFiles) return Promise.resolve(this.fromFiles.signer);
    const reloadMs = this.config.credentialIssuer.keyReloadSeconds * 1000;
    if (!this.cached || Date.now() - this.cached.loadedAt >= reloadMs) {
      const signer = this.loadSigner();
      this.cached = { signer, loadedAt: Date.now() };
      // A failed load is not kept: the next call tries again.
      signer.catch(() => {
        if (this.cached?.signer === signer) this.cached = undefined;
      });
    }
    return this.cached.signer;
  }

  /** The roots a verifier of our credentials trusts (DER). */
  async anchors(): Promise<Uint8Array[]> {
    if (this.fromFiles) return this.fromFiles.anchors;
    return [(await this.testRoot()).der];
  }

  /** customer-test: a new signer certificate under the same root, signing at once; the previous one is deleted after two reload intervals. */
  async rotate(): Promise<IssuerKeyView[]> {
    if (this.fromFiles) throw new Error('the production signer is rotated by replacing its files and restarting');
    await this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
      await this.addSigner(tx);
    });
    this.cached = undefined;
    return this.list();
  }

  async list(): Promise<IssuerKeyView[]> {
    if (this.fromFiles) {
      const { signer } = this.fromFiles;
      return [
        {
          kid: signer.kid,
          status: 'active',
          subject: subjectOf(signer.chain[0]),
          notAfter: signer.notAfter,
          signsFrom: null,
          retireAt: null,
          createdAt: null,
          source: 'file',
        },
      ];
    }
    const rows = await this.dataSource.getRepository(IssuerKeyEntity).find({ order: { createdAt: 'DESC' } });
    return rows.map((r) => ({
      kid: r.kid,
      status: r.status,
      subject: r.subject,
      notAfter: r.notAfter,
      signsFrom: r.signsFrom,
      retireAt: r.retireAt,
      createdAt: r.createdAt,
      source: 'database',
    }));
  }

  /**
   * Every key a credential that may still be valid was signed with, the signing one first: the signer now and the
   * replaced ones (customer-test: their certificates are kept, below; production: VCI_ISSUER_PREVIOUS_CERTIFICATES)
   * whose certificates have not expired; at most MAX_PUBLISHED_KEYS, newest first.
   */
  async published(): Promise<PublishedIssuerKey[]> {
    const signer = await this.current();
    const current = { kid: signer.kid, chain: [...signer.chain] };
    if (this.fromFiles) {
      const previous = this.fromFiles.previous.filter((p) => p.kid !== signer.kid && p.notAfter.getTime() > Date.now());
      return [current, ...previous.map(({ kid, chain }) => ({ kid, chain }))].slice(0, MAX_PUBLISHED_KEYS);
    }
    const rows = await this.dataSource.getRepository(IssuerKeyEntity).find({
      select: { kid: true, certificate: true },
      where: { notAfter: MoreThan(new Date()) },
      order: { createdAt: 'DESC' },
      take: MAX_PUBLISHED_KEYS,
    });
    const others = rows.filter((r) => r.kid !== signer.kid).map((r) => ({ kid: r.kid, chain: [new Uint8Array(Buffer.from(r.certificate, 'base64'))] }));
    return [current, ...others].slice(0, MAX_PUBLISHED_KEYS);
  }

  /**
   * A replaced signer's private key is destroyed once its retirement time has passed (no instance signs with it any
   * more); its certificate stays, published, until every credential it can have signed has expired (a credential
   * lives at most VCI_CREDENTIAL_MAX_LIFETIME_DAYS from its issuance), and then the row goes.
   */
  async purgeRetired(): Promise<number> {
    if (this.fromFiles) return 0;
    const repo = this.dataSource.getRepository(IssuerKeyEntity);
    const now = Date.now();
    const destroyed = await repo.update(
      { status: 'retiring', retireAt: LessThanOrEqual(new Date(now)), privateKeySealed: Not(IsNull()) },
      { privateKeySealed: null },
    );
    const lastCredentialEnd = (this.config.credentialIssuer.credentialMaxLifetimeDays + 1) * DAY;
    const deleted = await repo.delete({ status: 'retiring', retireAt: LessThanOrEqual(new Date(now - lastCredentialEnd)) });
    return (destroyed.affected ?? 0) + (deleted.affected ?? 0);
  }

  private async loadSigner(): Promise<IssuerSigner> {
    let row = await this.signingRow();
    // The first signer, or one that could not cover a credential's whole lifetime any more: a new one (once, under the lock).
    if (!row || this.tooShort(row)) {
      await this.dataSource.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
        const again = await this.signingRow(tx);
        if (!again || this.tooShort(again)) await this.addSigner(tx);
      });
      row = await this.signingRow();
    }
    if (!row?.privateKeySealed) throw new Error('credential issuer: no signer after creating one');
    const privateKey = createPrivateKey({ key: this.secretBox.decrypt(row.privateKeySealed, keyContext(row.kid)), format: 'der', type: 'pkcs8' });
    return { privateKey, chain: [new Uint8Array(Buffer.from(row.certificate, 'base64'))], kid: row.kid, notAfter: row.notAfter };
  }

  private async signingRow(manager: EntityManager = this.dataSource.manager): Promise<IssuerKeyEntity | undefined> {
    const rows = await manager.getRepository(IssuerKeyEntity).find();
    const kid = keySchedule(rows, Date.now()).signing.ES256;
    return rows.find((r) => r.kid === kid);
  }

  private tooShort(row: IssuerKeyEntity): boolean {
    return row.notAfter.getTime() < Date.now() + (this.config.credentialIssuer.credentialMaxLifetimeDays + 1) * DAY;
  }

  /** Inside the caller's locked transaction: the root if there is none yet, then a new signer; the previous ones retire. */
  private async addSigner(tx: EntityManager): Promise<void> {
    const root = await this.loadOrCreateRoot(tx);
    const { baseUrl, credentialIssuer } = this.config;
    const signer = await createSignerCertificate(root, {
      commonName: 'Customer-test Credential Issuer',
      dnsName: new URL(baseUrl).hostname,
      uri: `${baseUrl}/vci`,
      // A year of signing, and then the longest credential it signed must still chain to a valid certificate.
      notAfter: new Date(Date.now() + (credentialIssuer.credentialMaxLifetimeDays + 366) * DAY),
    });
    const kid = certificateThumbprint(signer.der);
    const now = new Date();
    const repo = tx.getRepository(IssuerKeyEntity);
    // Another instance may sign with the previous key until its next reload: keep the row until then, with a margin.
    await repo.update({ status: 'active' }, { status: 'retiring', retireAt: new Date(now.getTime() + 2 * credentialIssuer.keyReloadSeconds * 1000) });
    await repo.insert({
      kid,
      alg: 'ES256',
      status: 'active',
      certificate: Buffer.from(signer.der).toString('base64'),
      subject: subjectOf(signer.der),
      notAfter: new Date(new X509Certificate(signer.der).validTo),
      privateKeySealed: this.secretBox.encrypt(signer.privateKey.export({ type: 'pkcs8', format: 'der' }), keyContext(kid)),
      signsFrom: now,
      retireAt: null,
    });
  }

  private testRoot(): Promise<KeyAndCertificate> {
    if (this.config.isProduction) throw new Error('there is no test credential issuer root in production');
    this.root ??= this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
      return this.loadOrCreateRoot(tx);
    });
    this.root.catch(() => (this.root = undefined));
    return this.root;
  }

  private async loadOrCreateRoot(tx: EntityManager): Promise<KeyAndCertificate> {
    const repo = tx.getRepository(IssuerTestAuthorityEntity);
    const row = await repo.findOneBy({ id: ROOT_ID });
    if (row) {
      const stored = JSON.parse(this.secretBox.decryptText(row.sealed, ROOT_CONTEXT)) as { certificate: string; privateKey: string };
      return {
        der: new Uint8Array(Buffer.from(stored.certificate, 'base64')),
        privateKey: createPrivateKey({ key: Buffer.from(stored.privateKey, 'base64'), format: 'der', type: 'pkcs8' }),
      };
    }
    const root = await createTestRoot(ROOT_NAME, new Date(Date.now() + 20 * 365 * DAY));
    const stored = {
      certificate: Buffer.from(root.der).toString('base64'),
      privateKey: root.privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
    };
    await repo.insert({ id: ROOT_ID, sealed: this.secretBox.encrypt(JSON.stringify(stored), ROOT_CONTEXT) });
    return root;
  }
}
