import type { DataSource } from 'typeorm';
import { engineQueryRunner } from './engine-transaction.js';

/** The Redis side of a grant's revocation (RedisModelStore), when short-lived models live there. */
export interface GrantIndexedStore {
  revokeGrant(grantId: string): Promise<void>;
}

/**
 * Revokes a grant's models in every store they may be in: the database rows, and the Redis keys the grant
 * index names. Every adapter revokes through here, whatever store its own model lives in, so that a
 * replayed code (in Redis) also kills refresh tokens (in the database) and a replayed refresh token kills
 * access tokens (in Redis).
 *
 * The database goes first: once the Grant row is gone no token of it is accepted any more (the engine
 * checks the grant on every use), so a Redis failure after that leaves nothing usable behind.
 */
export class GrantRevocation {
  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: GrantIndexedStore | null = null,
  ) {}

  /** Every token, code and request of the grant (the engine's revokeByGrantId, whatever the model). */
  async tokens(grantId: string): Promise<void> {
    await engineQueryRunner(this.dataSource).query(`DELETE FROM oidc_payloads WHERE grant_id = $1`, [grantId]);
    await this.redis?.revokeGrant(grantId);
  }

  /**
   * The engine's revocation (helpers/revoke.js) on a replay: every model of the grant and the grant itself.
   * A token the winner of a race saves after this is unusable: the engine checks its grant on use.
   */
  async grantAndTokens(grantId: string): Promise<void> {
    await engineQueryRunner(this.dataSource).query(`DELETE FROM oidc_payloads WHERE grant_id = $1 OR (model = 'Grant' AND id = $1)`, [grantId]);
    await this.redis?.revokeGrant(grantId);
  }
}
