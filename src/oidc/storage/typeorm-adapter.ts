import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { NUL_REFUSED, refusedTextInValue } from '../../common/http/refused-characters.js';
import { engineQueryRunner } from './engine-transaction.js';
import { grantReadAfterConsume, heldGrant, holdGrant } from './grant-held-by-consumer.js';
import { GrantRevocation } from './grant-revocation.js';
import { keepLoginOfGrant } from './login-of-grant.js';
import { lostConsumeRace, replayRefusal, replayRetention, replayRevokesGrant } from './replay.js';
import { credentialHash, isCredentialModel, storedKey } from './stored-key.js';

export interface AdapterOptions {
  /**
   * How long a consumed row is remembered past its own expiry: as long as its grant can live, so that a
   * replay at any time still finds it and revokes the grant (spec 3).
   */
  replayRetentionSeconds: number;
  /** Where a grant's models are revoked; by default this database only (no Redis). */
  revocation?: GrantRevocation;
  /** Grants only: read the brokered login made for the grant in the same query (login-of-grant.ts). */
  readLoginWithGrant?: boolean;
}

/** A row that has not expired (one without an expiry does not), of the table named by `alias` ('p.') or the only one (''). */
const live = (alias: string) => `(${alias}expires_at IS NULL OR ${alias}expires_at > now())`;
/** A NUL cannot be a stored value and PostgreSQL refuses it in text: a lookup of one simply finds nothing. */
const findable = (value: string) => !value.includes('\u0000');

interface Row {
  payload: AdapterPayload;
  consumed_at: Date | null;
  grant_id: string | null;
}

/**
 * oidc-provider's storage contract on PostgreSQL (or PGlite).
 * - Credentials (tokens, codes) are keyed by a hash of their value, never stored in clear (stored-key.ts).
 * - `consume` is one conditional UPDATE: of concurrent consumers, on any number of instances, exactly one
 *   wins; the others are replays, so they revoke the grant and fail with invalid_grant (spec 3). The winner
 *   keeps the grant it consumed for (grant-held-by-consumer.ts), so a replay's revocation cannot make it lose too.
 * - Expiry is honoured on read; a consumed row is kept as long as its grant could live.
 */
export class TypeOrmAdapter implements Adapter {
  private readonly revocation: GrantRevocation;

  constructor(
    private readonly model: string,
    private readonly dataSource: DataSource,
    private readonly options: AdapterOptions,
  ) {
    this.revocation = options.revocation ?? new GrantRevocation(dataSource);
  }

  /** Inside inEngineTransaction, that transaction; otherwise the pool. */
  private get db() {
    return engineQueryRunner(this.dataSource);
  }

  async upsert(id: string, payload: AdapterPayload, asked: number): Promise<void> {
    const expiresIn = this.model === 'ReplayDetection' ? replayRetention(asked) : asked;
    // The edge refuses NULs and lone surrogates it can see; one hidden deeper (an encrypted request object) stops here as a 400.
    const refusal = id.includes('\u0000') ? NUL_REFUSED : refusedTextInValue(payload);
    if (refusal) throw new errors.InvalidRequest(refusal);
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
    const credential = isCredentialModel(this.model);
    const stored = credential ? withoutJti(payload) : payload;
    const userCode = payload.userCode && credential ? credentialHash(payload.userCode) : (payload.userCode ?? null);
    const values = [this.model, storedKey(this.model, id), JSON.stringify(stored), payload.grantId ?? null, userCode, payload.uid ?? null, expiresAt];
    if (this.model === 'ReplayDetection') return this.recordOnce(values, id, payload.iss);
    await this.db.query(
      `INSERT INTO oidc_payloads (model, id, payload, grant_id, user_code, uid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
         user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
      values,
    );
  }

  /**
   * ReplayDetection.unique (the engine) looks before it writes, so requests carrying one client assertion at once
   * all looked and found nothing. The write decides instead: only the request whose insert lands is the first use
   * (a live row makes the insert a no-op; an expired one not purged yet is taken over), every other one is the
   * replay (replayRefusal: a client assertion, RFC 7523 §3, or a DPoP proof, RFC 9449 §11.1). As in Redis.
   */
  private async recordOnce(values: unknown[], id: string, iss: unknown): Promise<void> {
    const written = (await this.db.query(
      `INSERT INTO oidc_payloads (model, id, payload, grant_id, user_code, uid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at
         WHERE oidc_payloads.expires_at IS NOT NULL AND oidc_payloads.expires_at <= now()
       RETURNING id`,
      values,
    )) as unknown[];
    if (written.length === 0) throw replayRefusal(id, iss);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (this.model === 'Grant') {
      const held = heldGrant(id);
      if (held) return held;
    }
    const row = this.options.readLoginWithGrant ? await this.findGrantWithLogin(id) : await this.findRow('id', storedKey(this.model, id));
    if (row?.consumed_at && row.grant_id && replayRevokesGrant(this.model)) await this.revocation.grantAndTokens(row.grant_id);
    return row && this.toPayload(row, id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await this.findRow('uid', uid);
    return row && this.toPayload(row);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const row = await this.findRow('user_code', isCredentialModel(this.model) ? credentialHash(userCode) : userCode);
    return row && this.toPayload(row);
  }

  async consume(id: string): Promise<void> {
    const key = storedKey(this.model, id);
    // RETURNING reads the grant as of this very update: no replay's revocation can come between.
    const [won]: [{ grant_id: string | null; grant: AdapterPayload | null }[], number] = await this.db.query(
      `UPDATE oidc_payloads c SET consumed_at = now(),
         expires_at = CASE WHEN c.expires_at IS NULL THEN NULL ELSE GREATEST(c.expires_at, now() + make_interval(secs => $3)) END
       WHERE c.model = $1 AND c.id = $2 AND c.consumed_at IS NULL
       RETURNING c.grant_id, CASE WHEN $4 THEN (SELECT g.payload FROM oidc_payloads g
         WHERE g.model = 'Grant' AND g.id = c.grant_id AND ${live('g.')}) END AS grant`,
      [this.model, key, this.options.replayRetentionSeconds, grantReadAfterConsume(this.model)],
    );
    if (won.length === 1) {
      if (won[0].grant_id && won[0].grant) holdGrant(won[0].grant_id, won[0].grant);
      return;
    }
    const rows: { grant_id: string | null }[] = await this.db.query(`SELECT grant_id FROM oidc_payloads WHERE model = $1 AND id = $2`, [this.model, key]);
    if (rows[0]?.grant_id) await this.revocation.grantAndTokens(rows[0].grant_id);
    throw lostConsumeRace(this.model);
  }

  async destroy(id: string): Promise<void> {
    await this.db.query(`DELETE FROM oidc_payloads WHERE model = $1 AND id = $2`, [this.model, storedKey(this.model, id)]);
  }

  /** Revokes every token of a grant, whatever its model and store (a replayed code revokes access and refresh tokens). */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.revocation.tokens(grantId);
  }

  private async findRow(column: 'id' | 'uid' | 'user_code', value: string): Promise<Row | undefined> {
    if (!findable(value)) return undefined;
    const rows: Row[] = await this.db.query(
      `SELECT payload, consumed_at, grant_id FROM oidc_payloads
       WHERE model = $1 AND ${column} = $2 AND ${live('')}`,
      [this.model, value],
    );
    return rows[0];
  }

  /** The grant, and the live brokered login made for it (kept for the rest of the request), in one round trip. */
  private async findGrantWithLogin(id: string): Promise<Row | undefined> {
    if (!findable(id)) return undefined;
    const rows: (Row & { login_id: string | null; login_client_id: string; login_scheme: string; login_identity_sealed: string })[] = await this.db.query(
      `SELECT p.payload, p.consumed_at, p.grant_id, b.id AS login_id, b.client_id AS login_client_id, b.scheme AS login_scheme,
         b.identity_sealed AS login_identity_sealed
       FROM oidc_payloads p LEFT JOIN brokered_logins b ON b.grant_id = p.id AND b.expires_at > now()
       WHERE p.model = 'Grant' AND p.id = $1 AND ${live('p.')}
       LIMIT 1`,
      [storedKey(this.model, id)],
    );
    const row = rows[0];
    if (!row) return undefined;
    keepLoginOfGrant(
      id,
      row.login_id ? { id: row.login_id, client_id: row.login_client_id, scheme: row.login_scheme, identity_sealed: row.login_identity_sealed } : null,
    );
    return row;
  }

  /** The row's payload (parsed by pg for this query, so completed in place, not copied), with its id and consumption. */
  private toPayload({ payload, consumed_at }: Row, id?: string): AdapterPayload {
    if (id !== undefined && isCredentialModel(this.model)) payload.jti = id;
    if (consumed_at) payload.consumed = Math.floor(consumed_at.getTime() / 1000);
    return payload;
  }
}

function withoutJti(payload: AdapterPayload): AdapterPayload {
  const { jti: _jti, ...rest } = payload;
  return rest;
}

/** Deletes expired rows; reads already ignore them, this keeps the table small. */
export async function purgeExpiredPayloads(dataSource: DataSource): Promise<number> {
  const result: [unknown[], number] = await dataSource.query(`DELETE FROM oidc_payloads WHERE expires_at <= now()`);
  return Array.isArray(result) ? (result[1] ?? 0) : 0;
}
