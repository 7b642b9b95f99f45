import { createHash, randomBytes } from 'node:crypto';
import type { DataSource, FindOperator } from 'typeorm';
import { SecretBox } from '../../../common/crypto/secret-box.js';
import type { PendingRedirectEntity } from './pending-redirect.entity.js';
import { PENDING_REDIRECT_TTL_SECONDS, PendingRedirectsService } from './pending-redirects.service.js';

/**
 * The pending redirects alone: the repository is a stub holding rows in a map by state hash (the conditional UPDATE
 * that makes a state single use across instances runs against PostgreSQL in the end-to-end tests), the secret box is
 * a real one.
 */
const hashOf = (state: string) => createHash('sha256').update(state).digest('base64url');

function stubRepository() {
  const rows = new Map<string, PendingRedirectEntity>();
  const queries: unknown[][] = [];
  const deleted: { expiresAt: FindOperator<Date> }[] = [];
  let answer: unknown[] = [];
  const repo = {
    insert: async (row: PendingRedirectEntity) => void rows.set(row.stateHash, row),
    findOneBy: async ({ stateHash }: { stateHash: string }) => rows.get(stateHash) ?? null,
    query: async (_sql: string, params: unknown[]) => (queries.push(params), answer),
    delete: async (where: { expiresAt: FindOperator<Date> }) => (deleted.push(where), { affected: 2 }),
  };
  const dataSource = { getRepository: () => repo } as unknown as DataSource;
  return { dataSource, rows, queries, deleted, answer: (rowsAnswered: unknown[]) => (answer = rowsAnswered) };
}

describe('pending redirects of redirect schemes', () => {
  const box = new SecretBox('k1', new Map([['k1', randomBytes(32)]]));
  const now = new Date('2026-05-01T12:00:00Z');

  it('hands out a fresh random state and keeps only its hash, bound to the interaction and scheme, the data sealed', async () => {
    const db = stubRepository();
    const redirects = new PendingRedirectsService(db.dataSource, box);
    const state = await redirects.create('uid-1', 'bank', { nonce: 'n-1' }, now);
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await redirects.create('uid-1', 'bank', { nonce: 'n-1' }, now)).not.toBe(state);
    const row = db.rows.get(hashOf(state))!;
    expect(row).toMatchObject({ interactionUid: 'uid-1', scheme: 'bank', consumedAt: null });
    expect([...db.rows.keys()]).not.toContain(state);
    expect(row.dataSealed).not.toContain('n-1');
    expect(row.expiresAt.getTime() - now.getTime()).toBe(PENDING_REDIRECT_TTL_SECONDS * 1000);
  });

  it('peeks: pending with its interaction and scheme, or unknown, used or expired', async () => {
    const db = stubRepository();
    const redirects = new PendingRedirectsService(db.dataSource, box);
    const state = await redirects.create('uid-1', 'bank', {}, now);
    expect(await redirects.peek(state, now)).toEqual({ status: 'pending', interactionUid: 'uid-1', scheme: 'bank' });
    expect(await redirects.peek('forged', now)).toEqual({ status: 'unknown' });
    const expiry = new Date(now.getTime() + PENDING_REDIRECT_TTL_SECONDS * 1000);
    expect(await redirects.peek(state, expiry)).toEqual({ status: 'expired' });
    db.rows.get(hashOf(state))!.consumedAt = now;
    expect(await redirects.peek(state, now)).toEqual({ status: 'used' });
  });

  it("consumes by the state's hash for exactly that interaction and scheme, and gives the scheme its data back", async () => {
    const db = stubRepository();
    const redirects = new PendingRedirectsService(db.dataSource, box);
    const state = await redirects.create('uid-1', 'bank', { nonce: 'n-1' }, now);
    const sealed = db.rows.get(hashOf(state))!.dataSealed;
    // TypeORM's postgres driver answers an UPDATE ... RETURNING as [rows, count]; both shapes are read.
    db.answer([[{ data_sealed: sealed }], 1]);
    expect(await redirects.consume(state, 'uid-1', 'bank', now)).toEqual({ nonce: 'n-1' });
    expect(db.queries[0]).toEqual([now, hashOf(state), 'uid-1', 'bank']);
    db.answer([{ data_sealed: sealed }]);
    expect(await redirects.consume(state, 'uid-1', 'bank', now)).toEqual({ nonce: 'n-1' });
    // No row updated: used, expired, or another interaction's or scheme's state.
    db.answer([[], 0]);
    expect(await redirects.consume(state, 'uid-2', 'bank', now)).toBeUndefined();
  });

  it("does not open data sealed for another state's hash", async () => {
    const db = stubRepository();
    const redirects = new PendingRedirectsService(db.dataSource, box);
    const first = await redirects.create('uid-1', 'bank', { nonce: 'n-1' }, now);
    db.answer([{ data_sealed: db.rows.get(hashOf(first))!.dataSealed }]);
    await expect(redirects.consume('another-state', 'uid-1', 'bank', now)).rejects.toThrow();
  });

  it('purges the expired states, used or not, and counts them', async () => {
    const db = stubRepository();
    expect(await new PendingRedirectsService(db.dataSource, box).purgeExpired(now)).toBe(2);
    expect(db.deleted.map(({ expiresAt }) => [expiresAt.type, expiresAt.value])).toEqual([['lessThanOrEqual', now]]);
  });
});
