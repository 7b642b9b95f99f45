import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource, LessThanOrEqual, Repository } from 'typeorm';
import { SecretBox } from '../../../common/crypto/secret-box.js';
import { PendingRedirectEntity } from './pending-redirect.entity.js';

/** Long enough for a user to finish at a bank's app, short enough that a stolen state soon stops working. */
export const PENDING_REDIRECT_TTL_SECONDS = 15 * 60;

export type PeekResult = { status: 'pending'; interactionUid: string; scheme: string } | { status: 'unknown' | 'used' | 'expired' };

const hashOf = (state: string) => createHash('sha256').update(state).digest('base64url');
const context = (hash: string) => `eid-pending-redirect:${hash}`;

/**
 * The `state` of redirect schemes, bound to one interaction and one scheme, usable once. The broker's
 * callback peeks (to find the interaction, whose cookie is scoped to its own path) and the interaction
 * consumes (one conditional UPDATE, so of two simultaneous callbacks exactly one wins).
 */
@Injectable()
export class PendingRedirectsService {
  private readonly repo: Repository<PendingRedirectEntity>;

  constructor(
    dataSource: DataSource,
    private readonly secretBox: SecretBox,
  ) {
    this.repo = dataSource.getRepository(PendingRedirectEntity);
  }

  /** A new state for the interaction and scheme, carrying the scheme's data (sealed). */
  async create(interactionUid: string, scheme: string, data: Record<string, unknown>, now = new Date()): Promise<string> {
    const state = randomBytes(32).toString('base64url');
    const stateHash = hashOf(state);
    await this.repo.insert({
      stateHash,
      interactionUid,
      scheme,
      dataSealed: this.secretBox.encrypt(JSON.stringify(data), context(stateHash)),
      expiresAt: new Date(now.getTime() + PENDING_REDIRECT_TTL_SECONDS * 1000),
      consumedAt: null,
    });
    return state;
  }

  async peek(state: string, now = new Date()): Promise<PeekResult> {
    const row = await this.repo.findOneBy({ stateHash: hashOf(state) });
    if (!row) return { status: 'unknown' };
    if (row.consumedAt) return { status: 'used' };
    if (row.expiresAt.getTime() <= now.getTime()) return { status: 'expired' };
    return { status: 'pending', interactionUid: row.interactionUid, scheme: row.scheme };
  }

  /** The scheme's data when the state is pending for exactly this interaction and scheme; it is then used up. */
  async consume(state: string, interactionUid: string, scheme: string, now = new Date()): Promise<Record<string, unknown> | undefined> {
    const stateHash = hashOf(state);
    const result: unknown[] = await this.repo.query(
      `UPDATE eid_pending_redirects SET consumed_at = $1
       WHERE state_hash = $2 AND interaction_uid = $3 AND scheme = $4 AND consumed_at IS NULL AND expires_at > $1
       RETURNING data_sealed`,
      [now, stateHash, interactionUid, scheme],
    );
    // UPDATE ... RETURNING answers [rows, count] through TypeORM's postgres driver.
    const rows = (Array.isArray(result[0]) ? result[0] : result) as { data_sealed: string }[];
    const sealed = rows[0]?.data_sealed;
    if (!sealed) return undefined;
    return JSON.parse(this.secretBox.decryptText(sealed, context(stateHash))) as Record<string, unknown>;
  }

  /**
   * Used states are kept until they expire (so a replay is told apart from a forgery in the logs), then
   * deleted with the unused ones.
   */
  async purgeExpired(now = new Date()): Promise<number> {
    const result = await this.repo.delete({ expiresAt: LessThanOrEqual(now) });
    return result.affected ?? 0;
  }
}
