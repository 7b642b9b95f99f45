import { Inject, Injectable } from '@nestjs/common';
import { randomBytes, randomInt } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/load-config.js';
import { STATUS_INVALID, STATUS_VALID } from './issued-credential-status.entity.js';
import { STATUS_LIST_SIZE, statusListUri } from './status-list-paths.js';
import { StatusListTokens } from './status-list-tokens.service.js';

/** A list takes new credentials until three quarters are used: a random free index is then found in 4 tries on average. */
const CLOSE_AT = (STATUS_LIST_SIZE * 3) / 4;
const MAX_ROUNDS = 64;

export interface AllocationFor {
  issuanceId: string;
  /** The verification record the credentials were issued from (its erasure before its retention's end revokes them). */
  recordId: string | null;
  expiresAt: Date;
  /** SHA-256 (hex) of the person's revocation handle (revocationHandle()). */
  revocationHandleHash?: string;
}

/** The `status.status_list` claim of one credential (Token Status List §6.2). */
export interface StatusReference {
  uri: string;
  idx: number;
}

export interface RevocationResult {
  /** Credentials revoked now. */
  revoked: number;
  /** Credentials of the issuance (or record) still known, revoked before or now. */
  total: number;
}

/**
 * The status entries of issued credentials: random indexes in lists of 2^17 (so that an index reveals neither the
 * order of issuance nor who else was issued at the same time) and their revocation. A revocation bumps its lists'
 * versions in the same transaction, which is how every instance learns to sign their tokens again.
 */
@Injectable()
export class CredentialStatusService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tokens: StatusListTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `count` entries for one issuance, in the caller's transaction when given (the credentials and their entries commit together). */
  async allocate(count: number, of: AllocationFor, manager?: EntityManager): Promise<StatusReference[]> {
    if (!Number.isInteger(count) || count < 1 || count > 100) throw new Error(`status allocation: count ${count} out of range`);
    const run = (tx: EntityManager) => this.allocateIn(tx, count, of);
    return manager ? run(manager) : this.dataSource.transaction(run);
  }

  revokeIssuance(issuanceId: string): Promise<RevocationResult> {
    return this.revokeWhere('issuance_id = $1', [issuanceId]);
  }

  revokeByRecord(recordId: string): Promise<RevocationResult> {
    return this.revokeWhere('verification_record_id = $1', [recordId]);
  }

  /** Every credential of the issuance the handle was given for. */
  revokeByHandleHash(handleHash: string): Promise<RevocationResult> {
    return this.revokeWhere('issuance_id IN (SELECT issuance_id FROM issued_credential_status WHERE revocation_handle_hash = $1)', [handleHash]);
  }

  /** Whether the handle still has a credential to revoke (not yet revoked, not expired). */
  async handleIsLive(handleHash: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT 1 FROM issued_credential_status WHERE issuance_id IN (SELECT issuance_id FROM issued_credential_status WHERE revocation_handle_hash = $1)
       AND status = 0 AND expires_at > now() LIMIT 1`,
      [handleHash],
    )) as unknown[];
    return rows.length > 0;
  }

  /**
   * Retention (docs/credential-issuer.md, "What is kept"): credentials whose verification record was erased are revoked.
   * A record also goes at the end of its retention (VERIFICATION_RETENTION_DAYS, at most 90), while a credential may
   * live up to VCI_CREDENTIAL_MAX_LIFETIME_DAYS (365): that end is foreseen and revokes nothing. So a credential is an
   * orphan only when its record is gone before the deletion time it had at issuance (record_delete_after); one whose
   * record was already missing at issuance (NULL there) is one too.
   */
  revokeOrphans(): Promise<RevocationResult> {
    return this.revokeWhere(
      `verification_record_id IS NOT NULL AND (record_delete_after IS NULL OR record_delete_after > now())
       AND NOT EXISTS (SELECT 1 FROM verification_records v WHERE v.id = issued_credential_status.verification_record_id)`,
      [],
    );
  }

  /**
   * Expired credentials leave their lists in two steps: at expiry + ttl their bit goes back to 0 (no verifier asks
   * about an expired credential), and only after that state has reached every instance and every relying party's
   * cache (another ttl, plus the refresh interval) is the row deleted and the index free, so that a new credential
   * on it never shows as revoked in a stale copy.
   */
  async purgeExpired(): Promise<{ released: number; deleted: number }> {
    const { statusListTtlSeconds: ttl, statusListRefreshSeconds: refresh } = this.config.credentialIssuer;
    const released = await this.changeStatus(
      `UPDATE issued_credential_status SET status = 0 WHERE status <> 0 AND expires_at <= now() - make_interval(secs => $1) RETURNING list_id`,
      [ttl],
    );
    // UPDATE ... RETURNING answers [rows, count] through TypeORM's postgres driver (a WITH ... UPDATE as well).
    const [rows] = (await this.dataSource.query(
      `WITH gone AS (DELETE FROM issued_credential_status WHERE expires_at <= now() - make_interval(secs => $1) RETURNING list_id),
            counted AS (SELECT list_id, count(*)::int AS n FROM gone GROUP BY list_id)
       UPDATE credential_status_lists l SET used = l.used - c.n, updated_at = now() FROM counted c WHERE l.id = c.list_id RETURNING c.n`,
      [2 * ttl + refresh + 60],
    )) as [{ n: number }[], number];
    return { released, deleted: rows.reduce((sum, r) => sum + Number(r.n), 0) };
  }

  private async allocateIn(tx: EntityManager, count: number, of: AllocationFor): Promise<StatusReference[]> {
    const listId = await this.openList(tx, count);
    const taken: number[] = [];
    for (let round = 0; taken.length < count; round++) {
      if (round === MAX_ROUNDS) throw new Error('status allocation: no free index found');
      const wanted = new Set<number>();
      while (wanted.size < count - taken.length) {
        const idx = randomInt(STATUS_LIST_SIZE);
        if (!taken.includes(idx)) wanted.add(idx);
      }
      // A taken index (unique list_id, idx) is skipped, not an error: the loop draws again for it.
      // The record's scheduled deletion is read in the same statement (revokeOrphans tells erasure from retention by it).
      const inserted = (await tx.query(
        `INSERT INTO issued_credential_status (list_id, idx, status, issuance_id, verification_record_id, record_delete_after, revocation_handle_hash, expires_at)
         SELECT $1, i, $7, $3, $4, (SELECT v.delete_after FROM verification_records v WHERE v.id = $4), $5, $6 FROM unnest($2::int[]) AS i
         ON CONFLICT (list_id, idx) DO NOTHING RETURNING idx`,
        [listId, [...wanted], of.issuanceId, of.recordId, of.revocationHandleHash ?? null, of.expiresAt, STATUS_VALID],
      )) as { idx: number }[];
      taken.push(...inserted.map((r) => r.idx));
    }
    const uri = statusListUri(this.config.baseUrl, listId);
    return taken.map((idx) => ({ uri, idx }));
  }

  /** The newest list with room for `count` (its row locked until the caller commits), or a new one. */
  private async openList(tx: EntityManager, count: number): Promise<string> {
    const claimed = (await tx.query(
      `UPDATE credential_status_lists SET used = used + $1, updated_at = now()
       WHERE id = (SELECT id FROM credential_status_lists WHERE open AND used + $1 <= $2 ORDER BY created_at DESC LIMIT 1 FOR UPDATE)
       RETURNING id`,
      [count, CLOSE_AT],
    )) as [{ id: string }[], number];
    const id = claimed[0][0]?.id;
    if (id) return id;
    await tx.query('UPDATE credential_status_lists SET open = false, updated_at = now() WHERE open AND used + $1 > $2', [count, CLOSE_AT]);
    const created = randomBytes(12).toString('base64url');
    await tx.query('INSERT INTO credential_status_lists (id, used, open, version) VALUES ($1, $2, true, 0)', [created, count]);
    return created;
  }

  private async revokeWhere(condition: string, params: unknown[]): Promise<RevocationResult> {
    const total = (await this.dataSource.query(`SELECT count(*)::int AS n FROM issued_credential_status WHERE ${condition}`, params)) as { n: number }[];
    const next = params.length + 1;
    const revoked = await this.changeStatus(
      `UPDATE issued_credential_status SET status = $${next}, revoked_at = now() WHERE (${condition}) AND status = 0 AND expires_at > now() RETURNING list_id`,
      [...params, STATUS_INVALID],
    );
    return { revoked, total: total[0].n };
  }

  /** Runs a status update returning list_id per changed row, and bumps those lists' versions in the same transaction. */
  private async changeStatus(update: string, params: unknown[]): Promise<number> {
    const { changed, versions } = await this.dataSource.transaction(async (tx) => {
      const [rows] = (await tx.query(update, params)) as [{ list_id: string }[], number];
      const lists = [...new Set(rows.map((r) => r.list_id))];
      if (!lists.length) return { changed: 0, versions: [] as [string, string][] };
      const [bumped] = (await tx.query(
        'UPDATE credential_status_lists SET version = version + 1, updated_at = now() WHERE id = ANY($1) RETURNING id, version::text AS version',
        [lists],
      )) as [{ id: string; version: string }[], number];
      return { changed: rows.length, versions: bumped.map((b): [string, string] => [b.id, b.version]) };
    });
    this.tokens.changed(versions);
    return changed;
  }
}
