import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager, LessThanOrEqual, Repository } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { poolQuery } from '../../database/pool-query.js';
import type { BrokeredIdentity } from '../spi/eid-provider.js';
import { BrokeredLoginEntity } from './brokered-login.entity.js';

export interface StoredLogin {
  id: string;
  clientId: string;
  scheme: string;
  identity: BrokeredIdentity;
}

/** The row as stored, its identity sealed. */
export interface SealedLogin {
  id: string;
  client_id: string;
  scheme: string;
  identity_sealed: string;
}

const context = (id: string) => `brokered-login:${id}`;

/**
 * Completed logins, sealed at rest. A login lives as long as the tokens that may read it (refresh
 * tokens included) and never longer than the retention limit; the purge deletes it for good.
 */
@Injectable()
export class BrokeredLoginsService {
  private readonly repo: Repository<BrokeredLoginEntity>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.repo = dataSource.getRepository(BrokeredLoginEntity);
  }

  /**
   * `manager`: a transaction to join (a CIBA completion stores the login with the request it completes).
   * Here and in findByGrant plain SQL, not the repository: both run on every login, and TypeORM's query
   * builder cost about 0.3 ms of CPU per call, more than the round trip (npm run profile:requests).
   */
  async store(clientId: string, grantId: string, scheme: string, identity: BrokeredIdentity, manager?: EntityManager): Promise<string> {
    const id = randomUUID();
    const expiresAt = new Date(Date.now() + this.config.oidc.loginRetentionSeconds * 1000);
    await (manager ?? poolQuery(this.dataSource)).query(
      `INSERT INTO brokered_logins (id, identity_sealed, client_id, grant_id, scheme, acr, amr, auth_time, evidence_ref, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        id,
        this.secretBox.encrypt(JSON.stringify(identity), context(id)),
        clientId,
        grantId,
        scheme,
        identity.acr ?? null,
        JSON.stringify(identity.amr),
        identity.authTime,
        identity.evidenceRef ?? null,
        expiresAt,
      ],
    );
    return id;
  }

  async findByGrant(grantId: string): Promise<StoredLogin | undefined> {
    const rows: SealedLogin[] = await this.dataSource.query(
      'SELECT id, client_id, scheme, identity_sealed FROM brokered_logins WHERE grant_id = $1 AND expires_at > now()',
      [grantId],
    );
    return rows[0] && this.unseal(rows[0]);
  }

  /** A login's row as read (by findByGrant, or with its grant by the engine's storage), its identity unsealed. */
  unseal(row: SealedLogin): StoredLogin {
    const identity = JSON.parse(this.secretBox.decryptText(row.identity_sealed, context(row.id))) as BrokeredIdentity;
    identity.authTime = new Date(identity.authTime);
    return { id: row.id, clientId: row.client_id, scheme: row.scheme, identity };
  }

  async purgeExpired(now = new Date()): Promise<number> {
    const result = await this.repo.delete({ expiresAt: LessThanOrEqual(now) });
    return result.affected ?? 0;
  }
}
