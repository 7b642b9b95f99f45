import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, Repository } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { type AppStatus, AppBindingEntity } from './app-binding.entity.js';
import { hashSecret, lookupKey, secretMatches } from './app-keys.js';

/** What a binding holds, sealed. */
interface BindingSecrets {
  appId: string;
  subject: string;
  /** scrypt of the secret the app chose at provisioning: only that app instance sees its authentication requests. */
  appSecretHash?: string;
  /** scrypt of the user_code the user chose in the app (checked when the merchant registered for user codes). */
  userCodeHash?: string;
}

export interface AppBinding extends BindingSecrets {
  id: string;
  clientId: string;
  status: AppStatus;
  createdAt: Date;
  updatedAt: Date;
}

const context = (clientId: string, appKey: string) => `ciba-app-binding:${clientId}:${appKey}`;

/** App instances bound to verified subjects, per merchant (spec 4.7 Provisioning). */
@Injectable()
export class AppBindingsService {
  private readonly repo: Repository<AppBindingEntity>;

  constructor(
    dataSource: DataSource,
    private readonly secretBox: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.repo = dataSource.getRepository(AppBindingEntity);
  }

  appKey(appId: string): string {
    return lookupKey(this.config.subjectSecret, 'app', appId);
  }

  async find(clientId: string, appId: string): Promise<AppBinding | undefined> {
    const row = await this.repo.findOneBy({ clientId, appKey: this.appKey(appId) });
    return row ? this.open(row) : undefined;
  }

  /** The app bound to a subject at this merchant (id_token_hint, login_hint_token with sub); the newest when several. */
  async findBySubject(clientId: string, subject: string): Promise<AppBinding | undefined> {
    const rows = await this.repo.find({
      where: { clientId, subjectKey: lookupKey(this.config.subjectSecret, 'subject', subject), status: 'active' },
      order: { updatedAt: 'DESC' },
      take: 1,
    });
    return rows[0] && this.open(rows[0]);
  }

  /** Provisioning completed: (re)binds the app to the verified subject; a later provisioning replaces the binding. */
  async bind(
    clientId: string,
    appId: string,
    subject: string,
    status: AppStatus,
    chosen: { appSecret?: string; userCode?: string },
    manager?: EntityManager,
  ): Promise<void> {
    const { appSecret, userCode } = chosen;
    const appKey = this.appKey(appId);
    const secrets: BindingSecrets = {
      appId,
      subject,
      ...(appSecret ? { appSecretHash: await hashSecret(appSecret) } : {}),
      ...(userCode ? { userCodeHash: await hashSecret(userCode) } : {}),
    };
    const sealed = this.secretBox.encrypt(JSON.stringify(secrets), context(clientId, appKey));
    await (manager?.getRepository(AppBindingEntity) ?? this.repo).upsert(
      { clientId, appKey, subjectKey: lookupKey(this.config.subjectSecret, 'subject', subject), status, sealed },
      { conflictPaths: ['clientId', 'appKey'] },
    );
  }

  /**
   * An operator suspends or reactivates a binding (spec 3 userStatus): a suspended app answers unknown_user_id to
   * new requests and cannot answer open ones. Undefined when the app is not bound at this merchant.
   */
  async setStatus(
    clientId: string,
    appId: string,
    status: AppStatus,
    manager: EntityManager,
  ): Promise<{ binding: AppBinding; previous: AppStatus } | undefined> {
    const repo = manager.getRepository(AppBindingEntity);
    const where = { clientId, appKey: this.appKey(appId) };
    const row = await repo.findOne({ where, lock: { mode: 'pessimistic_write' } });
    if (!row) return undefined;
    if (row.status !== status) await repo.update({ id: row.id }, { status });
    return { binding: this.open((await repo.findOneBy({ id: row.id }))!), previous: row.status };
  }

  /** An app bound without a secret (its provisioning sent none) is reachable by its appId alone. */
  async appSecretAccepted(binding: AppBinding, appSecret: string | undefined): Promise<boolean> {
    return binding.appSecretHash === undefined || (appSecret !== undefined && (await secretMatches(appSecret, binding.appSecretHash)));
  }

  /** Whether a binding of the app id, at any merchant, accepts `appSecret`: the app proves it is a bound install. */
  async boundAppAccepts(appId: string, appSecret: string | undefined): Promise<boolean> {
    const rows = await this.repo.findBy({ appKey: this.appKey(appId) });
    for (const row of rows) if (await this.appSecretAccepted(this.open(row), appSecret)) return true;
    return false;
  }

  userCodeMatches(binding: AppBinding, userCode: string): Promise<boolean> {
    return secretMatches(userCode, binding.userCodeHash);
  }

  private open(row: AppBindingEntity): AppBinding {
    const secrets = JSON.parse(this.secretBox.decryptText(row.sealed, context(row.clientId, row.appKey))) as BindingSecrets;
    return { id: row.id, clientId: row.clientId, status: row.status, createdAt: row.createdAt, updatedAt: row.updatedAt, ...secrets };
  }
}
