import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource, type EntityManager, In, MoreThan, Repository } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { SecretBox } from '../../common/crypto/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import type { BindingMessage } from '../../broker/spi/request/binding-message.js';
import type { AppStatus } from '../bindings/app-binding.entity.js';
import { type CibaRequestKind, type CibaRequestState, CibaRequestEntity } from './ciba-request.entity.js';

/** What a request carries that is personal or a credential: sealed in its row. */
export interface CibaRequestDetails {
  /** The engine's request id (a bearer credential for the merchant's poll), to complete the engine's request. */
  authReqId: string;
  appId: string;
  merchantName: string;
  /** Authentication: the subject the app is bound to; the approving verification must prove the same one. */
  subject?: string;
  /** Provisioning: the status the binding gets (spec 3: active unless the merchant says otherwise). */
  userStatus?: AppStatus;
  /** Provisioning: HMAC of the one-time code the merchant shows its user (provisioning-codes.ts); only an app presenting the code answers. */
  provisioningCodeHash?: string;
  binding: BindingMessage;
  scopes: string[];
  acrValues: string[];
  /** Ping/push merchants' bearer token for the callback. */
  notificationToken?: string;
}

export interface CibaRequest {
  row: CibaRequestEntity;
  details: CibaRequestDetails;
}

export type PollVerdict = { kind: 'pass' } | { kind: 'slow_down'; interval: number } | { kind: 'expired' };

/** How much the interval grows on each too-fast poll (RFC 8628 3.5, which CIBA Core 11 refers to). */
const SLOW_DOWN_STEP_SECONDS = 5;
/** Our rows outlive their requests a little, so that a late poll still gets expired_token, not invalid_grant. */
const KEEP_AFTER_EXPIRY_MS = 3600_000;

const context = (id: string) => `ciba-request:${id}`;
export const authReqIdHash = (authReqId: string) => createHash('sha256').update(authReqId, 'utf8').digest('base64url');

@Injectable()
export class CibaRequestsService {
  private readonly repo: Repository<CibaRequestEntity>;

  /** Reads of openForApp in flight, by app and cursor. */
  private readonly openReads = new Map<string, Promise<CibaRequest[]>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.repo = dataSource.getRepository(CibaRequestEntity);
  }

  async create(clientId: string, kind: CibaRequestKind, appKey: string, details: CibaRequestDetails, expiresAt: Date): Promise<string> {
    const row = this.repo.create({
      clientId,
      kind,
      appKey,
      state: 'pending',
      authReqIdHash: authReqIdHash(details.authReqId),
      sealed: '',
      intervalSeconds: this.config.ciba.pollIntervalSeconds,
      expiresAt,
    });
    // The id is part of the sealing context, so it is known before the row is written.
    row.id = crypto.randomUUID();
    row.sealed = this.secretBox.encrypt(JSON.stringify(details), context(row.id));
    await this.repo.insert(row);
    return row.id;
  }

  async get(id: string): Promise<CibaRequest | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
    const row = await this.repo.findOneBy({ id });
    return row ? { row, details: this.open(row) } : undefined;
  }

  /** A merchant's own open request (not answered, not expired) by its auth_req_id; any other is undefined. */
  async openOfMerchant(authReqId: string, clientId: string): Promise<CibaRequest | undefined> {
    const row = await this.repo.findOneBy({
      authReqIdHash: authReqIdHash(authReqId),
      clientId,
      state: In(['pending', 'verifying']),
      expiresAt: MoreThan(this.clock.now()),
    });
    return row ? { row, details: this.open(row) } : undefined;
  }

  /** Open provisionings of an app (all merchants): whose codes let an app that is not bound yet long-poll. */
  async openProvisioningsOf(appKey: string): Promise<CibaRequest[]> {
    const rows = await this.repo.findBy({ appKey, kind: 'provisioning', state: In(['pending', 'verifying']), expiresAt: MoreThan(this.clock.now()) });
    return rows.map((row) => ({ row, details: this.open(row) }));
  }

  /**
   * Open requests of an app (all merchants), after the cursor, oldest first. Reads of the same app and cursor in flight
   * share one query: an app's held long polls each read every half second (50 from one address, 100 queries a second),
   * and the busier the database, the more of them overlap and share. Readers do not change what they get.
   */
  openForApp(appKey: string, afterSeq: string): Promise<CibaRequest[]> {
    const key = `${appKey}\n${afterSeq}`;
    let read = this.openReads.get(key);
    if (!read) {
      read = this.readOpenForApp(appKey, afterSeq).finally(() => this.openReads.delete(key));
      this.openReads.set(key, read);
    }
    return read;
  }

  private async readOpenForApp(appKey: string, afterSeq: string): Promise<CibaRequest[]> {
    const rows = await this.repo
      .createQueryBuilder('r')
      .where('r.app_key = :appKey AND r.state IN (:...states) AND r.expires_at > :now AND r.seq > :after', {
        appKey,
        states: ['pending', 'verifying'],
        now: this.clock.now(),
        after: afterSeq,
      })
      .orderBy('r.seq', 'ASC')
      .take(20)
      .getMany();
    return rows.map((row) => ({ row, details: this.open(row) }));
  }

  /** One conditional UPDATE: moves the request only from `from` and while it has not expired (in `manager`'s transaction if given). */
  async transition(
    id: string,
    from: CibaRequestState[],
    to: CibaRequestState,
    changes: Partial<CibaRequestEntity> = {},
    manager?: EntityManager,
  ): Promise<boolean> {
    const result = await (manager?.getRepository(CibaRequestEntity) ?? this.repo).update({ id, state: In(from), expiresAt: MoreThan(this.clock.now()) }, {
      ...changes,
      state: to,
    } as never);
    return result.affected === 1;
  }

  /**
   * A poll of an authenticated merchant (CIBA Core 7.3, 11), after the engine answered it: too soon after the
   * previous one answers slow_down and the interval grows; an expired request answers expired_token (the
   * engine's storage no longer returns it, so it said invalid_grant). Only the row of this merchant is looked
   * at: another merchant's auth_req_id passes, and the engine's invalid_grant stands.
   */
  async pollVerdict(authReqId: string, clientId: string): Promise<PollVerdict> {
    // Measured on the database's clock alone (every instance shares it); a quarter second of tolerance for a
    // client that waits exactly the interval between its polls.
    const result: unknown[] = await this.dataSource.query(
      `WITH old AS (SELECT id, last_polled_at, interval_seconds, expires_at FROM ciba_requests WHERE auth_req_id_hash = $1 AND client_id = $2 FOR UPDATE)
       UPDATE ciba_requests r SET last_polled_at = now(),
         interval_seconds = CASE WHEN old.last_polled_at > now() - make_interval(secs => old.interval_seconds - 0.25) THEN old.interval_seconds + $3 ELSE old.interval_seconds END
       FROM old WHERE r.id = old.id
       RETURNING COALESCE(old.last_polled_at > now() - make_interval(secs => old.interval_seconds - 0.25), false) AS too_fast,
         r.interval_seconds AS interval, old.expires_at <= now() AS expired`,
      [authReqIdHash(authReqId), clientId, SLOW_DOWN_STEP_SECONDS],
    );
    // UPDATE ... RETURNING answers [rows, count] through TypeORM's postgres driver.
    const row = (Array.isArray(result[0]) ? result[0][0] : result[0]) as { too_fast: boolean; interval: number; expired: boolean } | undefined;
    if (!row) return { kind: 'pass' };
    if (row.expired) return { kind: 'expired' };
    return row.too_fast ? { kind: 'slow_down', interval: row.interval } : { kind: 'pass' };
  }

  async purge(): Promise<number> {
    const result = await this.repo
      .createQueryBuilder()
      .delete()
      .where('expires_at < :cutoff', { cutoff: new Date(this.clock.now().getTime() - KEEP_AFTER_EXPIRY_MS) })
      .execute();
    return result.affected ?? 0;
  }

  private open(row: CibaRequestEntity): CibaRequestDetails {
    return JSON.parse(this.secretBox.decryptText(row.sealed, context(row.id))) as CibaRequestDetails;
  }
}
