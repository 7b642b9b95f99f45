import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { DataSource, LessThanOrEqual, Repository } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { SigningKeyEntity } from './signing-key.entity.js';

export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
const ADVISORY_LOCK = 734_001;
const context = (kid: string) => `signing-key:${kid}`;

export interface SigningKeySet {
  /** Private JWKs, active keys first: oidc-provider signs with the first key that fits the algorithm. */
  keys: JWK[];
  /** Changes whenever the set changes; instances compare it to know when to reload. */
  fingerprint: string;
}

@Injectable()
export class SigningKeysService {
  private readonly repo: Repository<SigningKeyEntity>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
  ) {
    this.repo = dataSource.getRepository(SigningKeyEntity);
  }

  /** Generates the first RS256 and ES256 keys once; the advisory lock keeps two starting instances from both doing it. */
  async ensureKeys(): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
      const active = await tx.getRepository(SigningKeyEntity).findBy({ status: 'active' });
      for (const alg of SIGNING_ALGS) {
        if (!active.some((k) => k.alg === alg)) await tx.getRepository(SigningKeyEntity).insert(await this.generate(alg));
      }
    });
  }

  async load(): Promise<SigningKeySet> {
    const rows = await this.repo.find({ order: { createdAt: 'DESC' } });
    const now = Date.now();
    const published = rows
      .filter((r) => r.status === 'active' || (r.retireAt && r.retireAt.getTime() > now))
      .sort((a, b) => (a.status === b.status ? 0 : a.status === 'active' ? -1 : 1));
    const keys = published.map((r) => JSON.parse(this.secretBox.decryptText(r.privateJwkSealed, context(r.kid))) as JWK);
    const fingerprint = createHash('sha256').update(published.map((r) => `${r.kid}:${r.status}`).join(',')).digest('hex');
    return { keys, fingerprint };
  }

  /** New active keys for every algorithm; the previous ones stay published (not used to sign) for `overlapSeconds`. */
  async rotate(overlapSeconds: number): Promise<SigningKeyEntity[]> {
    return this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
      const repo = tx.getRepository(SigningKeyEntity);
      await repo.update({ status: 'active' }, { status: 'retiring', retireAt: new Date(Date.now() + overlapSeconds * 1000) });
      for (const alg of SIGNING_ALGS) await repo.insert(await this.generate(alg));
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
    return { kid, alg, status: 'active', retireAt: null, privateJwkSealed: this.secretBox.encrypt(JSON.stringify(jwk), context(kid)) };
  }
}
