import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import { NUL_REFUSED, refusedTextInValue } from '../../common/http/refused-characters.js';
import type { GrantRevocation } from './grant-revocation.js';
import type { RedisModelStore, StoredModel } from './redis-model-store.js';
import { lostConsumeRace, replayRefusal, replayRetention, replayRevokesGrant } from './replay.js';
import { credentialHash, isCredentialModel, storedKey } from './stored-key.js';

export interface RedisAdapterOptions {
  /** How long a consumed model is remembered: as long as its grant can live (see AdapterOptions). */
  replayRetentionSeconds: number;
  /** Revokes a grant in Redis and in the database alike (its refresh tokens and the Grant are there). */
  revocation: GrantRevocation;
}

/**
 * oidc-provider's storage contract on Redis, for the short-lived models (adapter-factory.ts), with the
 * database adapter's invariants:
 * - credentials are keyed by a hash of their value, never stored in clear (stored-key.ts);
 * - `consume` is one script: of concurrent consumers on any number of instances exactly one wins; the others
 *   are replays, so they revoke the whole grant and fail with invalid_grant (spec 3);
 * - a consumed model is kept as long as its grant can live, so a replay at any later time still revokes;
 * - expiry is Redis's own (a key past its time to live is never read).
 */
export class RedisAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly store: RedisModelStore,
    private readonly options: RedisAdapterOptions,
  ) {}

  async upsert(id: string, payload: AdapterPayload, asked: number): Promise<void> {
    const expiresIn = this.model === 'ReplayDetection' ? replayRetention(asked) : asked;
    // As on the database: a NUL or lone surrogate hidden deeper than the edge's check is a 400, not a stored oddity.
    const refusal = id.includes('\u0000') ? NUL_REFUSED : refusedTextInValue(payload);
    if (refusal) throw new errors.InvalidRequest(refusal);
    const credential = isCredentialModel(this.model);
    const stored = credential ? withoutJti(payload) : payload;
    const written = await this.store.upsert(this.model, storedKey(this.model, id), JSON.stringify(stored), {
      grantId: payload.grantId,
      uid: payload.uid,
      userCode: payload.userCode && credential ? credentialHash(payload.userCode) : payload.userCode,
      // The database adapter reads 0 (or none) as "does not expire"; a past time as already expired.
      ttlMs: expiresIn ? (expiresIn > 0 ? expiresIn * 1000 : -1) : 0,
      onlyIfAbsent: this.model === 'ReplayDetection',
    });
    // ReplayDetection.unique looks before it writes; of two instances that both looked, the second writer is the replay.
    if (!written) throw replayRefusal(id, payload.iss);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const found = await this.store.find(this.model, storedKey(this.model, id));
    if (found?.consumed && found.grantId && replayRevokesGrant(this.model)) await this.options.revocation.grantAndTokens(found.grantId);
    return found && this.toPayload(found, id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const found = await this.store.findByUid(this.model, uid);
    const payload = found && this.toPayload(found);
    // The index outlives a model saved again under another uid; only the model's own uid counts.
    return payload?.uid === uid ? payload : undefined;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const stored = isCredentialModel(this.model) ? credentialHash(userCode) : userCode;
    const found = await this.store.findByUserCode(this.model, stored);
    const payload = found && this.toPayload(found);
    if (!payload?.userCode) return undefined;
    return (isCredentialModel(this.model) ? credentialHash(payload.userCode) : payload.userCode) === stored ? payload : undefined;
  }

  async consume(id: string): Promise<void> {
    const { won, grantId } = await this.store.consume(this.model, storedKey(this.model, id), this.options.replayRetentionSeconds * 1000);
    if (won) return;
    if (grantId) await this.options.revocation.grantAndTokens(grantId);
    throw lostConsumeRace(this.model);
  }

  async destroy(id: string): Promise<void> {
    await this.store.destroy(this.model, storedKey(this.model, id));
  }

  /** Every model of the grant in both stores, whatever this adapter's model (as the database adapter does). */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.options.revocation.tokens(grantId);
  }

  /** The stored payload, parsed afresh (so completed in place, not copied), with its id and consumption. */
  private toPayload(found: StoredModel, id?: string): AdapterPayload {
    const payload = JSON.parse(found.payload) as AdapterPayload;
    if (id !== undefined && isCredentialModel(this.model)) payload.jti = id;
    if (found.consumed) payload.consumed = found.consumed;
    return payload;
  }
}

function withoutJti(payload: AdapterPayload): AdapterPayload {
  const { jti: _jti, ...rest } = payload;
  return rest;
}
