import type { Redis } from 'ioredis';

/*
 * The engine models' writes on Redis, each one script so that it is atomic (no other client sees half of it,
 * and no read-then-write race between instances). A model is a hash: p (the payload, JSON), g (its grant,
 * '' for none), c (when it was consumed, epoch seconds; absent until then). Times to live are milliseconds;
 * 0 means none. Single node only: the scripts name keys they build (the grant index, the indexed model).
 */

/** Extends a key's life to at least `ms` (never shortens it, never adds expiry to a key without one). */
const AT_LEAST = `
local function atLeast(key, ms)
  local current = redis.call('PTTL', key)
  if current >= 0 and current < ms then redis.call('PEXPIRE', key, ms) end
end`;

/**
 * KEYS: 1 the model, 2 its uid index, 3 its user-code index, 4 its grant's index.
 * ARGV: 1 payload, 2 grant id or '', 3 ttl ms (negative: already expired), 4 '1' to write only if absent, 5 the model's stored key,
 * 6 '1' to index the uid, 7 '1' to index the user code.
 * Returns 0 when ARGV[4] is set and the model already exists, else 1. Keeps `c` (as the database keeps consumed_at).
 */
const UPSERT = `${AT_LEAST}
if ARGV[4] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local ttl = tonumber(ARGV[3])
if ttl < 0 then redis.call('DEL', KEYS[1]) return 1 end
local function expire(key)
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) else redis.call('PERSIST', key) end
end
redis.call('HSET', KEYS[1], 'p', ARGV[1], 'g', ARGV[2])
expire(KEYS[1])
if ARGV[6] == '1' then redis.call('SET', KEYS[2], ARGV[5]) expire(KEYS[2]) end
if ARGV[7] == '1' then redis.call('SET', KEYS[3], ARGV[5]) expire(KEYS[3]) end
if ARGV[2] ~= '' then
  local fresh = redis.call('EXISTS', KEYS[4]) == 0
  redis.call('SADD', KEYS[4], KEYS[1])
  if fresh or ttl == 0 then expire(KEYS[4]) else atLeast(KEYS[4], ttl) end
end
return 1`;

/**
 * KEYS: 1 the model. ARGV: 1 now (epoch s), 2 how long a consumed model is kept (ms), 3 the grant index prefix.
 * Returns { 1 if this call consumed it (0 if absent or already consumed), its grant id or '' }.
 * The consumed model and its grant index are kept at least ARGV[2], so that a replay at any later time still
 * finds it and revokes the grant.
 */
const CONSUME = `${AT_LEAST}
if redis.call('EXISTS', KEYS[1]) == 0 then return {0, ''} end
local grant = redis.call('HGET', KEYS[1], 'g') or ''
if redis.call('HSETNX', KEYS[1], 'c', ARGV[1]) == 0 then return {0, grant} end
local keep = tonumber(ARGV[2])
atLeast(KEYS[1], keep)
if grant ~= '' then atLeast(ARGV[3] .. grant, keep) end
return {1, grant}`;

/** KEYS: 1 an index (uid or user code). ARGV: 1 the model key prefix. Returns the indexed model's p, g, c (or nil). */
const FIND_INDEXED = `
local id = redis.call('GET', KEYS[1])
if not id then return false end
return redis.call('HMGET', ARGV[1] .. id, 'p', 'g', 'c')`;

/** KEYS: 1 a grant index. Deletes every model it names, and itself; returns how many were named. */
const REVOKE_GRANT = `
local members = redis.call('SMEMBERS', KEYS[1])
for i = 1, #members, 500 do redis.call('DEL', unpack(members, i, math.min(i + 499, #members))) end
redis.call('DEL', KEYS[1])
return #members`;

export interface OidcScripts {
  brokerOidcUpsert(data: string, uidIndex: string, userCodeIndex: string, grantIndex: string, ...args: string[]): Promise<number>;
  brokerOidcConsume(data: string, now: string, keepMs: string, grantPrefix: string): Promise<[number, string]>;
  brokerOidcFindIndexed(index: string, modelPrefix: string): Promise<[string | null, string | null, string | null] | null>;
  brokerOidcRevokeGrant(grantIndex: string): Promise<number>;
}

/** Registers the scripts on the shared client (once; ioredis sends them by SHA, and again after a Redis restart). */
export function withOidcScripts(redis: Redis): Redis & OidcScripts {
  const scripts: Record<keyof OidcScripts, [number, string]> = {
    brokerOidcUpsert: [4, UPSERT],
    brokerOidcConsume: [1, CONSUME],
    brokerOidcFindIndexed: [1, FIND_INDEXED],
    brokerOidcRevokeGrant: [1, REVOKE_GRANT],
  };
  for (const [name, [numberOfKeys, lua]] of Object.entries(scripts)) if (!(name in redis)) redis.defineCommand(name, { numberOfKeys, lua });
  return redis as Redis & OidcScripts;
}
