import type { Redis } from 'ioredis';

/** A key's count in its current window, and how long until the window ends. */
export interface WindowCount {
  count: number;
  resetInMs: number;
}

export interface RateLimitStore {
  /** Counts one request for `key` and answers the window's count so far. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
}

/**
 * Fixed windows in this process (no REDIS_URL): a window starts at a key's first request. Expired windows are
 * swept as the map grows, so many one-off clients (IPs) cannot fill the memory.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private nextSweepAt = 10_000;

  hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
      if (this.windows.size >= this.nextSweepAt) this.sweep(now);
    }
    window.count++;
    return Promise.resolve({ count: window.count, resetInMs: window.endsAt - now });
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    this.nextSweepAt = Math.max(10_000, this.windows.size * 2);
  }
}

/**
 * INCR and the window's expiry in one script, so every instance counts into the same window and a key never
 * outlives it (a crash between INCR and PEXPIRE would otherwise leave a counter that never resets).
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/** Shared across instances through Redis (REDIS_URL); the answer is bounded in time so a slow Redis never holds a request. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly timeoutMs = 250,
  ) {}

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`redis did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      const [count, ttl] = (await Promise.race([this.redis.eval(HIT_SCRIPT, 1, `${this.prefix}${key}`, windowMs), timeout])) as [number, number];
      return { count, resetInMs: ttl };
    } finally {
      clearTimeout(timer);
    }
  }
}
