import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DataSource } from 'typeorm';

/**
 * oidc-provider's storage contract on PostgreSQL (or PGlite). Expiry is honoured on read, so an expired
 * row is never returned even before the purge job deletes it; `consume` marks rather than deletes so that
 * a replayed authorization code is recognised and its grant revoked (spec 3).
 */
export class TypeOrmAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly dataSource: DataSource,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
    await this.dataSource.query(
      `INSERT INTO oidc_payloads (model, id, payload, grant_id, user_code, uid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
         user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
      [this.model, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresAt],
    );
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findBy('id', id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findBy('uid', uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findBy('user_code', userCode);
  }

  async consume(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE oidc_payloads SET consumed_at = now() WHERE model = $1 AND id = $2`, [this.model, id]);
  }

  async destroy(id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM oidc_payloads WHERE model = $1 AND id = $2`, [this.model, id]);
  }

  /** Revokes every token of a grant, whatever its model (a replayed code revokes access and refresh tokens). */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM oidc_payloads WHERE grant_id = $1`, [grantId]);
  }

  private async findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const rows: { payload: AdapterPayload; consumed_at: Date | null }[] = await this.dataSource.query(
      `SELECT payload, consumed_at FROM oidc_payloads
       WHERE model = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > now())`,
      [this.model, value],
    );
    if (!rows.length) return undefined;
    const { payload, consumed_at } = rows[0];
    return consumed_at ? { ...payload, consumed: Math.floor(consumed_at.getTime() / 1000) } : payload;
  }
}

/** Deletes expired rows; reads already ignore them, this keeps the table small. */
export async function purgeExpiredPayloads(dataSource: DataSource): Promise<number> {
  const result: [unknown[], number] = await dataSource.query(`DELETE FROM oidc_payloads WHERE expires_at <= now()`);
  return Array.isArray(result) ? (result[1] ?? 0) : 0;
}
