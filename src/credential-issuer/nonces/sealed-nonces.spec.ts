import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { decodeProtectedHeader } from 'jose';
import { SealedNonces } from './sealed-nonces.js';
import { MemorySpentValues, RedisSpentValues } from './spent-values.js';
import { TemporarilyUnavailableError } from '../../common/errors/temporarily-unavailable.js';
import { freePort } from '../../../test/support/free-port.js';

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const at = (iso: string) => new Date(iso);

describe('sealed nonces (the credential issuer: stateless c_nonce)', () => {
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);
  const cNonces = new SealedNonces('openid4vci c_nonce', 'k1', new Map([['k1', k1]]));
  const t0 = at('2030-01-01T00:00:00Z');

  it('opens what it sealed until it expires, and not from then on', async () => {
    const nonce = await cNonces.seal(t0, 300);
    const opened = await cNonces.open(nonce, at('2030-01-01T00:04:59Z'));
    expect(opened).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), expiresAtMs: at('2030-01-01T00:05:00Z').getTime() });
    expect(await cNonces.open(nonce, at('2030-01-01T00:05:00Z'))).toBeUndefined();
    expect(await cNonces.open(nonce, at('2030-01-01T01:00:00Z'))).toBeUndefined();
    // Every nonce is another one (a random id inside): the endpoint's answers share nothing.
    expect((await cNonces.open(await cNonces.seal(t0, 300), t0))!.id).not.toBe(opened!.id);
  });

  it('refuses a nonce of another purpose under the same key material, both ways', async () => {
    const dpopNonces = new SealedNonces('dpop nonce', 'k1', new Map([['k1', k1]]));
    expect(await cNonces.open(await dpopNonces.seal(t0, 300), t0)).toBeUndefined();
    expect(await dpopNonces.open(await cNonces.seal(t0, 300), t0)).toBeUndefined();
  });

  it('refuses every change of a character, or opens it as the very same nonce (base64url spare bits)', async () => {
    const nonce = await cNonces.seal(t0, 300);
    const { id } = (await cNonces.open(nonce, t0))!;
    const outcomes = new Set<string>();
    for (let i = 0; i < nonce.length; i++) {
      if (nonce[i] === '.') continue;
      const changed = nonce.slice(0, i) + B64URL[(B64URL.indexOf(nonce[i]) + 1) % 64] + nonce.slice(i + 1);
      const opened = await cNonces.open(changed, t0);
      outcomes.add(opened === undefined ? 'refused' : opened.id === id ? 'same nonce' : `another nonce at ${i}`);
    }
    // Some last characters carry spare bits: the same bytes, so the same id, which the spent set is keyed by.
    expect([...outcomes].sort()).toEqual(['refused', 'same nonce']);
    for (const bad of [
      `${nonce}A`,
      nonce.slice(0, -1),
      nonce.replace('..', '.x.'),
      nonce.split('.').reverse().join('.'),
      '',
      'a.b.c',
      'x'.repeat(600),
      42,
      null,
      undefined,
      { nonce },
    ]) {
      expect(await cNonces.open(bad, t0)).toBeUndefined();
    }
  });

  it('keeps nonces of a rotated key open until they expire, seals new ones with the new key, forgets a key removed', async () => {
    const sealedBefore = await cNonces.seal(t0, 300);
    const rotated = new SealedNonces(
      'openid4vci c_nonce',
      'k2',
      new Map([
        ['k1', k1],
        ['k2', k2],
      ]),
    );
    expect(await rotated.open(sealedBefore, t0)).toEqual(await cNonces.open(sealedBefore, t0));
    const sealedAfter = await rotated.seal(t0, 300);
    expect(decodeProtectedHeader(sealedAfter)).toEqual({ alg: 'dir', enc: 'A256GCM', kid: 'k2' });
    expect(await cNonces.open(sealedAfter, t0)).toBeUndefined();
    const oldKeyGone = new SealedNonces('openid4vci c_nonce', 'k2', new Map([['k2', k2]]));
    expect(await oldKeyGone.open(sealedBefore, t0)).toBeUndefined();
    // Another deployment (another DATA_ENCRYPTION_KEY under the same id) opens none of ours.
    expect(await new SealedNonces('openid4vci c_nonce', 'k1', new Map([['k1', k2]])).open(sealedBefore, t0)).toBeUndefined();
  });
});

describe('spent values in memory (no REDIS_URL)', () => {
  it('spends a value once until it expires', async () => {
    const spent = new MemorySpentValues(10);
    expect(await spent.spend('a', 2_000, 1_000)).toBe(true);
    expect(await spent.spend('a', 2_000, 1_999)).toBe(false);
    expect(await spent.spend('b', 2_000, 1_999)).toBe(true);
    // Past its expiry the value could not pass its own checks any more; the marker may go.
    expect(await spent.spend('a', 3_000, 2_000)).toBe(true);
  });

  it('is bounded: full of live markers it refuses (503) rather than forget one; expired ones make room', async () => {
    const spent = new MemorySpentValues(3);
    for (const key of ['a', 'b', 'c']) expect(await spent.spend(key, 10_000, 0)).toBe(true);
    await expect(spent.spend('d', 10_000, 5_000)).rejects.toBeInstanceOf(TemporarilyUnavailableError);
    expect(await spent.spend('a', 10_000, 5_000)).toBe(false);
    expect(spent.size).toBe(3);
    expect(await spent.spend('d', 20_000, 10_000)).toBe(true);
    expect(spent.size).toBe(1);
  });
});

describe('spent values in Redis', () => {
  it('answers a Redis that cannot be reached as temporarily unavailable (503), never as a first use', async () => {
    // A port nobody listens on, with the service's fail-fast settings (no offline queue) and no reconnecting.
    const redis = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      enableOfflineQueue: false,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    try {
      await expect(new RedisSpentValues(redis, 'test-unreachable:').spend('a', 10_000, 0)).rejects.toBeInstanceOf(TemporarilyUnavailableError);
    } finally {
      redis.disconnect();
    }
  });
});
