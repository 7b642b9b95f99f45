import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { DataSource, LessThanOrEqual, Repository } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { SigningKeyChanges } from './signing-key-changes.js';
import { keySchedule } from './signing-key-schedule.js';
import { SigningKeyEntity } from './signing-key.entity.js';

export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
const ADVISORY_LOCK = 734_001;
const context = (kid: string) => `signing-key:${kid}`;

export interface SigningKeySet {
  /** Private JWKs, the signing key of each algorithm first: oidc-provider signs with the first key that fits. */
  keys: JWK[];
  /** Changes whenever the published set or a signing key changes; instances compare it to know when to reload. */
  fingerprint: string;
  /** When the set changes by itself (a published key starts signing, or leaves): reload then. */
  nextChangeAt?: number;
}

const PUBLIC_COLUMNS = { kid: true, alg: true, status: true, retireAt: true, signsFrom: true, createdAt: true } as const;

@Injectable()
export class SigningKeysService {
  private readonly repo: Repository<SigningKeyEntity>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    private readonly changes: SigningKeyChanges,
  ) {
    this.repo = dataSource.getRepository(SigningKeyEntity);
  }

  /** Generates the first RS256 and ES256 keys once; the advisory lock keeps two starting instances from both doing it. */
  async ensureKeys(): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
      const active = await tx.getRepository(SigningKeyEntity).findBy({ status: 'active' });
      const missing = SIGNING_ALGS.filter((alg) => !active.some((k) => k.alg === alg));
      for (const alg of missing) await tx.getRepository(SigningKeyEntity).insert(await this.generate(alg));
      if (missing.length) await this.changes.announce(tx);
    });
  }

  async load(): Promise<SigningKeySet> {
    const rows = await this.repo.find({ order: { createdAt: 'DESC' } });
    const schedule = keySchedule(rows, Date.now());
    const keys = schedule.published.map((r) => JSON.parse(this.secretBox.decryptText(r.privateJwkSealed, context(r.kid))) as JWK);
    return { keys, fingerprint: fingerprintOf(schedule.published.map((r) => r.kid)), nextChangeAt: schedule.nextChangeAt };
  }

  /** The fingerprint load() would give, without reading or unsealing private keys: the periodic check's query. */
  async currentFingerprint(): Promise<string> {
    const rows = await this.repo.find({ select: PUBLIC_COLUMNS, order: { createdAt: 'DESC' } });
    return fingerprintOf(keySchedule(rows, Date.now()).published.map((r) => r.kid));
  }

  /**
   * New keys for every algorithm, published at once but signing only after `publishDelaySeconds` (every
   * instance reloads within that time, so none signs with a key another does not publish yet). The previous
   * keys sign until then and stay published `overlapSeconds` after it, for relying parties' caches.
   */
  async rotate(overlapSeconds: number, publishDelaySeconds: number): Promise<SigningKeyEntity[]> {
    return this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
      const repo = tx.getRepository(SigningKeyEntity);
      const signsFrom = new Date(Date.now() + publishDelaySeconds * 1000);
      await repo.update({ status: 'active' }, { status: 'retiring', retireAt: new Date(signsFrom.getTime() + overlapSeconds * 1000) });
      for (const alg of SIGNING_ALGS) await repo.insert({ ...(await this.generate(alg)), signsFrom });
      // Delivered at commit: another instance that hears it reads the rows this transaction wrote.
      await this.changes.announce(tx);
      return repo.find({ order: { createdAt: 'DESC' } });
    });
  }

  async list(): Promise<SigningKeyEntity[]> {
    return this.repo.find({ order: { createdAt: 'DESC' } });
  }

  /** Drops retired keys whose overlap has ended. */
  async purgeRetired(): Promise<void> {
    await this.repo.delete({ status: 'retiring', retireAt: LessThanOrEqual(new Date()) });
  }

  private async generate(alg: 'RS256' | 'ES256'): Promise<Partial<SigningKeyEntity>> {
    const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
    const kid = `${alg.toLowerCase()}-${randomUUID()}`;
    const jwk = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
    return { kid, alg, status: 'active', retireAt: null, signsFrom: null, privateJwkSealed: this.secretBox.encrypt(JSON.stringify(jwk), context(kid)) };
  }
}

/** Order matters: the first key of each algorithm signs, so a change of signer is a change of fingerprint. */
function fingerprintOf(kids: string[]): string {
  return createHash('sha256').update(kids.join(',')).digest('hex');
}
