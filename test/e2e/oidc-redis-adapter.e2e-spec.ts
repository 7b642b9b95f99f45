import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Redis } from 'ioredis';
import { errors, type Adapter } from 'oidc-provider';
import { TemporarilyUnavailableError } from '../../src/common/errors/temporarily-unavailable.js';
import { connectRedis } from '../../src/redis/redis.module.js';
import { engineAdapters } from '../../src/oidc/storage/adapter-factory.js';
import { RedisAdapter } from '../../src/oidc/storage/redis-adapter.js';
import { RedisModelStore } from '../../src/oidc/storage/redis-model-store.js';
import { credentialHash } from '../../src/oidc/storage/stored-key.js';
import { TypeOrmAdapter } from '../../src/oidc/storage/typeorm-adapter.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const RETENTION = 3600;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const id = () => randomBytes(32).toString('base64url');

/**
 * The Redis adapter's contract (issue 15, point 1), on the machine's Redis under a prefix of this run, with
 * the database of a real app for the models that stay there. Two clients stand for two instances.
 */
describe('engine models on Redis', () => {
  let t: TestApp;
  let clients: Redis[];
  let prefix: string;
  /** Adapters of "instance" 0 and 1: same Redis, same database, separate connections. */
  let instances: ((model: string) => Adapter)[];

  beforeAll(async () => {
    t = await startTestApp();
    prefix = `test-${randomBytes(6).toString('hex')}:`;
    clients = [connectRedis(REDIS_URL), connectRedis(REDIS_URL)];
    // The client refuses commands until it is connected (no offline queue).
    await Promise.all(clients.map((c) => once(c, 'ready')));
    instances = clients.map((c) => engineAdapters({ dataSource: t.dataSource, redis: new RedisModelStore(c, prefix), replayRetentionSeconds: RETENTION }));
  });
  afterAll(async () => {
    const keys = await clients[0].keys(`${prefix}*`);
    if (keys.length) await clients[0].del(...keys);
    await Promise.all(clients.map((c) => c.quit()));
    await t?.close();
  });

  const [one, two] = [(m: string) => instances[0](m), (m: string) => instances[1](m)];
  const keys = () => clients[0].keys(`${prefix}*`);
  const dbRows = async (grantId: string) =>
    (
      (await t.dataSource.query(`SELECT model FROM oidc_payloads WHERE grant_id = $1 OR (model = 'Grant' AND id = $1) ORDER BY model`, [grantId])) as {
        model: string;
      }[]
    ).map((r) => r.model);

  /** A grant with a refresh token in the database and an access token and a code in Redis. */
  async function grantWithTokens(codeTtl = 60) {
    const grantId = id();
    const code = id();
    const accessToken = id();
    await one('Grant').upsert(grantId, { jti: grantId, kind: 'Grant', clientId: 'c1', accountId: 'a1' }, RETENTION);
    await one('RefreshToken').upsert(id(), { kind: 'RefreshToken', grantId, clientId: 'c1' }, RETENTION);
    await one('AccessToken').upsert(accessToken, { kind: 'AccessToken', grantId, clientId: 'c1' }, 900);
    await one('AuthorizationCode').upsert(code, { kind: 'AuthorizationCode', grantId, clientId: 'c1' }, codeTtl);
    return { grantId, code, accessToken };
  }

  it('puts the short-lived models in Redis, the others in the database, and nothing without Redis', () => {
    for (const model of ['Session', 'Interaction', 'AuthorizationCode', 'PushedAuthorizationRequest', 'ReplayDetection', 'AccessToken'])
      expect(one(model)).toBeInstanceOf(RedisAdapter);
    for (const model of ['Grant', 'RefreshToken', 'BackchannelAuthenticationRequest', 'DeviceCode']) expect(one(model)).toBeInstanceOf(TypeOrmAdapter);
    const withoutRedis = engineAdapters({ dataSource: t.dataSource, redis: null, replayRetentionSeconds: RETENTION });
    for (const model of ['Session', 'AuthorizationCode', 'AccessToken']) expect(withoutRedis(model)).toBeInstanceOf(TypeOrmAdapter);
  });

  it('stores a credential under the hash of its value, never the value, and finds it from any instance', async () => {
    const code = id();
    await one('AuthorizationCode').upsert(code, { jti: code, kind: 'AuthorizationCode', clientId: 'c1', grantId: 'g-hash' }, 60);
    expect(await two('AuthorizationCode').find(code)).toMatchObject({ jti: code, kind: 'AuthorizationCode', clientId: 'c1' });
    expect(await two('AuthorizationCode').find(id())).toBeUndefined();
    const names = await keys();
    expect(names).toContain(`${prefix}oidc:AuthorizationCode:${credentialHash(code)}`);
    for (const name of names) {
      expect(name).not.toContain(code);
      expect(
        JSON.stringify((await clients[0].type(name)) === 'hash' ? await clients[0].hgetall(name) : await clients[0].smembers(name).catch(() => [])),
      ).not.toContain(code);
    }
  });

  it('forgets a model when its time to live is over', async () => {
    const session = id();
    await one('Session').upsert(session, { jti: session, kind: 'Session', uid: id() }, 1);
    expect(await two('Session').find(session)).toBeDefined();
    await sleep(1100);
    expect(await two('Session').find(session)).toBeUndefined();
  });

  it('finds a session by its uid, only while the session has that uid', async () => {
    const [session, uid, otherUid] = [id(), id(), id()];
    await one('Session').upsert(session, { jti: session, kind: 'Session', uid }, 600);
    expect(await two('Session').findByUid(uid)).toMatchObject({ jti: session, uid });
    await one('Session').upsert(session, { jti: session, kind: 'Session', uid: otherUid }, 600);
    expect(await two('Session').findByUid(uid)).toBeUndefined();
    expect(await two('Session').findByUid(otherUid)).toMatchObject({ jti: session });
    await two('Session').destroy(session);
    expect(await one('Session').findByUid(otherUid)).toBeUndefined();
    expect(await one('Session').find(session)).toBeUndefined();
  });

  it('lets exactly one of many concurrent consumers on two instances win; the others revoke the whole grant', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const { grantId, code, accessToken } = await grantWithTokens();
      const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => instances[i % 2]('AuthorizationCode').consume(code)));
      const won = results.filter((r) => r.status === 'fulfilled');
      expect({ trial, won: won.length }).toEqual({ trial, won: 1 });
      for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
        expect(r.reason).toBeInstanceOf(errors.InvalidGrant);
        expect((r.reason as errors.InvalidGrant).error_detail).toBe('authorization code already consumed');
      }
      // Revoked in both stores: the Grant and refresh token rows, the access token and the code keys.
      expect(await dbRows(grantId)).toEqual([]);
      expect(await one('AccessToken').find(accessToken)).toBeUndefined();
      expect(await one('AuthorizationCode').find(code)).toBeUndefined();
    }
  });

  it('consumes once without a race, and then a later find is a replay that revokes the grant', async () => {
    const { grantId, code, accessToken } = await grantWithTokens();
    await two('AuthorizationCode').consume(code);
    expect(await dbRows(grantId)).toEqual(['Grant', 'RefreshToken']);
    expect(await one('AccessToken').find(accessToken)).toBeDefined();
    const replayed = await one('AuthorizationCode').find(code);
    expect(replayed?.consumed).toEqual(expect.any(Number));
    expect(await dbRows(grantId)).toEqual([]);
    expect(await one('AccessToken').find(accessToken)).toBeUndefined();
  });

  it('remembers a consumed code past its own expiry, so a replay after it expired still revokes the grant', async () => {
    const { grantId, code, accessToken } = await grantWithTokens(1);
    await one('AuthorizationCode').consume(code);
    const ttl = await clients[0].pttl(`${prefix}oidc:AuthorizationCode:${credentialHash(code)}`);
    expect(ttl).toBeGreaterThan((RETENTION - 60) * 1000);
    await sleep(1200); // past the code's own second
    expect(await two('AuthorizationCode').find(code)).toMatchObject({ consumed: expect.any(Number) });
    expect(await dbRows(grantId)).toEqual([]);
    expect(await one('AccessToken').find(accessToken)).toBeUndefined();
  });

  it('refuses to consume what does not exist (an expired, unknown or revoked code)', async () => {
    await expect(one('AuthorizationCode').consume(id())).rejects.toBeInstanceOf(errors.InvalidGrant);
    await expect(one('PushedAuthorizationRequest').consume(id())).rejects.toBeInstanceOf(errors.InvalidRequestUri);
  });

  it('revokes a grant across both stores from either side, leaving other grants alone', async () => {
    const first = await grantWithTokens();
    const other = await grantWithTokens();
    // From a database model's adapter: the Redis models of the grant go too.
    await one('RefreshToken').revokeByGrantId(first.grantId);
    expect(await dbRows(first.grantId)).toEqual(['Grant']);
    expect(await two('AccessToken').find(first.accessToken)).toBeUndefined();
    expect(await two('AuthorizationCode').find(first.code)).toBeUndefined();
    // From a Redis model's adapter: the database tokens of the grant go too.
    await two('AccessToken').revokeByGrantId(other.grantId);
    expect(await dbRows(other.grantId)).toEqual(['Grant']);
    expect(await one('AccessToken').find(other.accessToken)).toBeUndefined();
    expect(await keys()).not.toContain(`${prefix}oidc-grant:${other.grantId}`);
  });

  it('lets only one of two instances record the same client assertion', async () => {
    const marker = id();
    const results = await Promise.allSettled(
      [one, two].map((a) => a('ReplayDetection').upsert(marker, { jti: marker, kind: 'ReplayDetection', iss: 'c1' }, 60)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(lost?.reason).toBeInstanceOf(errors.InvalidClientAuth);
  });

  it('answers at once with temporarily_unavailable when Redis cannot be reached', async () => {
    const dead = connectRedis('redis://127.0.0.1:1');
    try {
      const adapter = engineAdapters({ dataSource: t.dataSource, redis: new RedisModelStore(dead, prefix), replayRetentionSeconds: RETENTION })('Interaction');
      const started = Date.now();
      const failure = await adapter.find(id()).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(TemporarilyUnavailableError);
      expect(failure).toMatchObject({ error: 'temporarily_unavailable', status: 503, expose: true });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      dead.disconnect();
    }
  });
});
