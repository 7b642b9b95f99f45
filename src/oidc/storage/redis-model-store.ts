import type { Redis } from 'ioredis';
import { TemporarilyUnavailableError } from '../../common/errors/temporarily-unavailable.js';
import type { GrantIndexedStore } from './grant-revocation.js';
import { type OidcScripts, withOidcScripts } from './redis-scripts.js';

/** One stored engine model as read back. */
export interface StoredModel {
  /** The payload as the adapter stored it (JSON). */
  payload: string;
  grantId?: string;
  /** When it was consumed, epoch seconds. */
  consumed?: number;
}

export interface UpsertOptions {
  grantId?: string;
  uid?: string;
  /** Already in its stored form (hashed for credentials). */
  userCode?: string;
  /** Milliseconds; 0: no expiry. */
  ttlMs: number;
  /** Write only if no model of that key exists (a replay marker); returns false then. */
  onlyIfAbsent?: boolean;
}

/**
 * The engine's models on Redis, by model name and stored key (already hashed for credentials). Every key
 * starts with the configured prefix. A Redis that cannot be reached is answered at once (the client has no
 * offline queue) as TemporarilyUnavailableError, never as an internal error, and never waited for.
 */
export class RedisModelStore implements GrantIndexedStore {
  private readonly redis: Redis & OidcScripts;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.redis = withOidcScripts(redis);
  }

  private modelKey = (model: string, key: string) => `${this.prefix}oidc:${model}:${key}`;
  private uidKey = (model: string, uid: string) => `${this.prefix}oidc-uid:${model}:${uid}`;
  private userCodeKey = (model: string, userCode: string) => `${this.prefix}oidc-uc:${model}:${userCode}`;
  private get grantPrefix() {
    return `${this.prefix}oidc-grant:`;
  }

  async upsert(model: string, key: string, payload: string, o: UpsertOptions): Promise<boolean> {
    const data = this.modelKey(model, key);
    const written = await this.call(() =>
      this.redis.brokerOidcUpsert(
        data,
        o.uid ? this.uidKey(model, o.uid) : data,
        o.userCode ? this.userCodeKey(model, o.userCode) : data,
        o.grantId ? this.grantPrefix + o.grantId : data,
        payload,
        o.grantId ?? '',
        String(Math.round(o.ttlMs)),
        o.onlyIfAbsent ? '1' : '0',
        key,
        o.uid ? '1' : '0',
        o.userCode ? '1' : '0',
      ),
    );
    return written === 1;
  }

  async find(model: string, key: string): Promise<StoredModel | undefined> {
    return toStored(await this.call(() => this.redis.hmget(this.modelKey(model, key), 'p', 'g', 'c')));
  }

  async findByUid(model: string, uid: string): Promise<StoredModel | undefined> {
    return toStored(await this.call(() => this.redis.brokerOidcFindIndexed(this.uidKey(model, uid), this.modelKey(model, ''))));
  }

  async findByUserCode(model: string, userCode: string): Promise<StoredModel | undefined> {
    return toStored(await this.call(() => this.redis.brokerOidcFindIndexed(this.userCodeKey(model, userCode), this.modelKey(model, ''))));
  }

  /** Marks the model consumed unless it already was (atomically, across instances); `won` only for the one caller that did. */
  async consume(model: string, key: string, keepMs: number): Promise<{ won: boolean; grantId?: string }> {
    const [won, grantId] = await this.call(() =>
      this.redis.brokerOidcConsume(this.modelKey(model, key), String(Math.floor(Date.now() / 1000)), String(keepMs), this.grantPrefix),
    );
    return { won: won === 1, grantId: grantId || undefined };
  }

  async destroy(model: string, key: string): Promise<void> {
    await this.call(() => this.redis.del(this.modelKey(model, key)));
  }

  /** Deletes every model the grant's index names (its codes, access tokens, interactions …). */
  async revokeGrant(grantId: string): Promise<void> {
    await this.call(() => this.redis.brokerOidcRevokeGrant(this.grantPrefix + grantId));
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (e) {
      // An answer from Redis that is not about its availability is a defect here: a 500 with its log line.
      if ((e as Error | undefined)?.name === 'ReplyError' && !TRANSIENT_REPLY.test((e as Error).message)) throw e;
      // The client's own errors (connection refused, stream not writeable, retries exhausted) say nothing a
      // caller could act on; the Redis module logs the outage once.
      throw new TemporarilyUnavailableError();
    }
  }
}

/** Redis answers that mean "not now" (starting up, failing over), not a mistake of ours. */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN)\b/;

function toStored(fields: (string | null)[] | null): StoredModel | undefined {
  const [payload, grantId, consumed] = fields ?? [];
  if (!payload) return undefined;
  return { payload, ...(grantId && { grantId }), ...(consumed && { consumed: Number(consumed) }) };
}
