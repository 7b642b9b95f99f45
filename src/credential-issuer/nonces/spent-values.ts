import type { Redis } from 'ioredis';
import { TemporarilyUnavailableError } from '../../common/errors/temporarily-unavailable.js';

/**
 * The values an authenticated request has used up (a c_nonce, a DPoP proof's jti), each kept only until it could no
 * longer pass its other checks anyway. Never in the database: these are minutes-long markers, and a table of them grew
 * by a row per call, authenticated or not.
 */
export interface SpentValues {
  /** Marks `key` spent until `untilMs` (epoch ms): true the first time, false while it already is. */
  spend(key: string, untilMs: number, nowMs: number): Promise<boolean>;
}

/**
 * In Redis (REDIS_URL): one `SET NX PX`, so of two requests with the same value on any number of instances exactly
 * one is first, and Redis forgets the marker when the value has expired. A Redis that does not answer is a 503
 * (temporarily_unavailable), never a pass: the single use could not be checked.
 */
export class RedisSpentValues implements SpentValues {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async spend(key: string, untilMs: number, nowMs: number): Promise<boolean> {
    const ttlMs = Math.max(1, Math.ceil(untilMs - nowMs));
    try {
      return (await this.redis.set(this.prefix + key, '1', 'PX', ttlMs, 'NX')) === 'OK';
    } catch (e) {
      // An answer from Redis that is not about its availability is a defect here: a 500 with its log line.
      if ((e as Error | undefined)?.name === 'ReplyError' && !TRANSIENT_REPLY.test((e as Error).message)) throw e;
      throw new TemporarilyUnavailableError();
    }
  }
}

/** Redis answers that mean "not now" (starting up, failing over), not a mistake of ours. */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN)\b/;

/** Without Redis: markers in this process, at most this many (about 20 MB), a spent value is a few minutes' entry. */
export const MEMORY_SPENT_VALUES_MAX = 100_000;
/** Expired markers are dropped at most this often, and whenever the map is full (then at most once a second). */
const SWEEP_EVERY_MS = 60_000;
const FULL_SWEEP_EVERY_MS = 1_000;

/**
 * Without Redis: a map in this process, bounded. Only authenticated requests add to it (a token or a code their
 * caller knew), so filling it takes many real wallets at once; when it is full of live markers it refuses (503) rather
 * than forget one, which would let that value be used again. Single use then holds per instance only (see
 * docs/credential-issuer.md: several instances share these through Redis).
 */
export class MemorySpentValues implements SpentValues {
  private readonly spent = new Map<string, number>();
  private lastSweepMs = 0;

  constructor(private readonly max = MEMORY_SPENT_VALUES_MAX) {}

  spend(key: string, untilMs: number, nowMs: number): Promise<boolean> {
    const until = this.spent.get(key);
    if (until !== undefined && until > nowMs) return Promise.resolve(false);
    const full = this.spent.size >= this.max;
    if (nowMs - this.lastSweepMs >= (full ? FULL_SWEEP_EVERY_MS : SWEEP_EVERY_MS)) this.sweep(nowMs);
    if (!this.spent.has(key) && this.spent.size >= this.max) return Promise.reject(new TemporarilyUnavailableError());
    this.spent.set(key, untilMs);
    return Promise.resolve(true);
  }

  get size(): number {
    return this.spent.size;
  }

  private sweep(nowMs: number): void {
    this.lastSweepMs = nowMs;
    for (const [key, until] of this.spent) if (until <= nowMs) this.spent.delete(key);
  }
}
