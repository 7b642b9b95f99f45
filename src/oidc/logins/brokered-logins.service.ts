import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager, LessThanOrEqual, Repository } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import type { BrokeredIdentity } from '../../eid/eid-provider.js';
import { BrokeredLoginEntity } from './brokered-login.entity.js';

export interface StoredLogin {
  id: string;
  clientId: string;
  scheme: string;
  identity: BrokeredIdentity;
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
    dataSource: DataSource,
    private readonly secretBox: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.repo = dataSource.getRepository(BrokeredLoginEntity);
  }

  /** `manager`: a transaction to join (a CIBA completion stores the login with the request it completes). */
  async store(clientId: string, grantId: string, scheme: string, identity: BrokeredIdentity, manager?: EntityManager): Promise<string> {
    const id = randomUUID();
    await (manager?.getRepository(BrokeredLoginEntity) ?? this.repo).insert({
      id,
      identitySealed: this.secretBox.encrypt(JSON.stringify(identity), context(id)),
      clientId,
      grantId,
      scheme,
      acr: identity.acr ?? null,
      amr: identity.amr,
      authTime: identity.authTime,
      evidenceRef: identity.evidenceRef ?? null,
      expiresAt: new Date(Date.now() + this.config.oidc.loginRetentionSeconds * 1000),
    });
    return id;
  }

  async findByGrant(grantId: string): Promise<StoredLogin | undefined> {
    const row = await this.repo.findOneBy({ grantId });
    if (!row || row.expiresAt.getTime() <= Date.now()) return undefined;
    const identity = JSON.parse(this.secretBox.decryptText(row.identitySealed, context(row.id))) as BrokeredIdentity;
    identity.authTime = new Date(identity.authTime);
    return { id: row.id, clientId: row.clientId, scheme: row.scheme, identity };
  }

  async purgeExpired(now = new Date()): Promise<number> {
    const result = await this.repo.delete({ expiresAt: LessThanOrEqual(now) });
    return result.affected ?? 0;
  }
}
