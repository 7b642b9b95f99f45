/**
 * Stores for the bare-engine anchor besides the engine's own in-memory adapter: the simplest correct adapter
 * over PostgreSQL (one table, one statement per call) and over Redis (one hash per model instance). They answer
 * "what does the unmodified engine do on the same store as the service?": the ceiling for any service built on
 * it there, against which the gap to the in-memory anchor can be read as the store's share.
 *
 *   ANCHOR_STORE=memory (default) | postgres (ANCHOR_DATABASE_URL, a database of its own) | redis (ANCHOR_REDIS_URL)
 *               | split (both: the service's division with REDIS_URL, README "Redis for short-lived state")
 */
import pg from 'pg';
import { Redis } from 'ioredis';

type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; consumed?: number };
export type AdapterFactory = (model: string) => unknown;

const expiry = (expiresIn: number | undefined) => (expiresIn ? new Date(Date.now() + expiresIn * 1000) : null);

export async function postgresAdapter(connectionString: string): Promise<{ factory: AdapterFactory; close(): Promise<void> }> {
  // The service's pool size for one instance (DATABASE_POOL_SIZE's default).
  const pool = new pg.Pool({ connectionString, max: 10 });
  pool.on('error', () => undefined); // an idle client ended by the database's removal at the end of a run
  await pool.query(`CREATE TABLE IF NOT EXISTS anchor_models (
    model text NOT NULL, id text NOT NULL, payload jsonb NOT NULL, grant_id text, uid text, user_code text,
    expires_at timestamptz, consumed_at timestamptz, PRIMARY KEY (model, id))`);
  await pool.query('CREATE INDEX IF NOT EXISTS anchor_models_uid ON anchor_models (uid)');
  await pool.query('CREATE INDEX IF NOT EXISTS anchor_models_grant ON anchor_models (grant_id)');
  const live = 'AND (expires_at IS NULL OR expires_at > now())';
  const row = (rows: Array<{ payload: Payload; consumed_at: Date | null }>) =>
    rows[0] ? { ...rows[0].payload, ...(rows[0].consumed_at ? { consumed: Math.floor(rows[0].consumed_at.getTime() / 1000) } : {}) } : undefined;
  const factory: AdapterFactory = (model) => ({
    upsert: async (id: string, payload: Payload, expiresIn: number) => {
      await pool.query(
        `INSERT INTO anchor_models (model, id, payload, grant_id, uid, user_code, expires_at) VALUES ($1,$2,$3,$4,$5,$6,$7)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
           user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
        [model, id, payload, payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiry(expiresIn)],
      );
    },
    find: async (id: string) =>
      row((await pool.query(`SELECT payload, consumed_at FROM anchor_models WHERE model = $1 AND id = $2 ${live}`, [model, id])).rows),
    findByUid: async (uid: string) =>
      row((await pool.query(`SELECT payload, consumed_at FROM anchor_models WHERE model = $1 AND uid = $2 ${live}`, [model, uid])).rows),
    findByUserCode: async (code: string) =>
      row((await pool.query(`SELECT payload, consumed_at FROM anchor_models WHERE model = $1 AND user_code = $2 ${live}`, [model, code])).rows),
    consume: async (id: string) => {
      await pool.query('UPDATE anchor_models SET consumed_at = now() WHERE model = $1 AND id = $2', [model, id]);
    },
    destroy: async (id: string) => {
      await pool.query('DELETE FROM anchor_models WHERE model = $1 AND id = $2', [model, id]);
    },
    revokeByGrantId: async (grantId: string) => {
      await pool.query('DELETE FROM anchor_models WHERE grant_id = $1', [grantId]);
    },
  });
  return { factory, close: () => pool.end() };
}

export function redisAdapter(url: string): { factory: AdapterFactory; close(): Promise<void> } {
  const redis = new Redis(url, { keyPrefix: `anchor:${process.pid}:` });
  const read = async (key: string) => {
    const [payload, consumed] = await redis.hmget(key, 'payload', 'consumed');
    return payload ? { ...(JSON.parse(payload) as Payload), ...(consumed ? { consumed: Number(consumed) } : {}) } : undefined;
  };
  const factory: AdapterFactory = (model) => {
    const key = (id: string) => `${model}:${id}`;
    return {
      upsert: async (id: string, payload: Payload, expiresIn: number) => {
        const multi = redis.multi().hset(key(id), 'payload', JSON.stringify(payload));
        if (expiresIn) multi.expire(key(id), expiresIn);
        if (payload.uid) multi.set(`uid:${payload.uid}`, id, 'EX', expiresIn || 3600);
        if (payload.userCode) multi.set(`user_code:${payload.userCode}`, id, 'EX', expiresIn || 3600);
        if (payload.grantId) multi.rpush(`grant:${payload.grantId}`, key(id)).expire(`grant:${payload.grantId}`, expiresIn || 3600);
        await multi.exec();
      },
      find: (id: string) => read(key(id)),
      findByUid: async (uid: string) => {
        const id = await redis.get(`uid:${uid}`);
        return id ? read(key(id)) : undefined;
      },
      findByUserCode: async (code: string) => {
        const id = await redis.get(`user_code:${code}`);
        return id ? read(key(id)) : undefined;
      },
      consume: async (id: string) => {
        await redis.hset(key(id), 'consumed', Math.floor(Date.now() / 1000));
      },
      destroy: async (id: string) => {
        await redis.del(key(id));
      },
      revokeByGrantId: async (grantId: string) => {
        const keys = await redis.lrange(`grant:${grantId}`, 0, -1);
        if (keys.length) await redis.del(...keys, `grant:${grantId}`);
      },
    };
  };
  return { factory, close: async () => void (await redis.quit()) };
}

/** The models the service keeps in PostgreSQL even with Redis (README, "Redis for short-lived state"); the rest go to Redis. */
const DURABLE_MODELS = new Set(['Grant', 'RefreshToken', 'BackchannelAuthenticationRequest']);

export function splitAdapter(durable: { factory: AdapterFactory; close(): Promise<void> }, shortLived: { factory: AdapterFactory; close(): Promise<void> }) {
  return {
    factory: (model: string) => (DURABLE_MODELS.has(model) ? durable.factory(model) : shortLived.factory(model)),
    close: async () => void (await Promise.all([durable.close(), shortLived.close()])),
  };
}
