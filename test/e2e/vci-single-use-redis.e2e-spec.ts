import { randomBytes } from 'node:crypto';
import { REDIS, type RedisHandle } from '../../src/redis/redis.module.js';
import { testKey } from '../support/credential-issuer.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { startInstanceRouter, type InstanceRouter } from '../support/instance-router.js';
import { tableRows } from '../support/table-rows.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { errorOf, madeUp, PRE_AUTH, vciClient } from '../support/vci-client.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Two instances on one PostgreSQL and one Redis, behind one address: a c_nonce either one made is spent once between
 * them, and so is a DPoP proof (the spent ones are Redis keys, SET NX). Unauthenticated calls leave no key and no row.
 */
describeWithPostgres('credential issuer: single use across two instances on Redis', () => {
  let router: InstanceRouter;
  let a: TestApp;
  let b: TestApp;
  let prefix: string;
  /** The requests through the router; `router.route` says which instance answers. */
  let vci: ReturnType<typeof vciClient>;

  beforeAll(async () => {
    router = await startInstanceRouter();
    prefix = `test-${randomBytes(6).toString('hex')}:`;
    const env = { BASE_URL: router.url, REDIS_URL, REDIS_KEY_PREFIX: prefix };
    a = await startTestApp({ env });
    b = await startTestApp({ sameDatabaseAs: a, env });
    router.instances = { a: a.config.port, b: b.config.port };
    vci = vciClient(a, router.url);
  });
  afterAll(async () => {
    // The first instance's close removes the keys under the test-… prefix.
    await b?.close();
    await a?.close();
    await router?.close();
  });

  const on = async <T>(instance: string, call: () => Promise<T>): Promise<T> => {
    router.route = instance;
    return call();
  };
  const wallet = async () => {
    const key = await testKey();
    return { key, token: await vci.accessToken(key) };
  };
  const spentKeys = async () => (await a.app.get<symbol, RedisHandle>(REDIS, { strict: false })!.keys(`${prefix}vci-spent:*`)).sort();

  it('spends a c_nonce once across instances: made on one, taken on the other, refused on the first', async () => {
    router.route = 'a';
    const [w1, w2] = await Promise.all([wallet(), wallet()]);
    const nonce = await on('a', vci.nonce);
    expect((await on('b', () => vci.credential(w1.key, w1.token, nonce))).status).toBe(200);
    expect(await errorOf(await on('a', () => vci.credential(w2.key, w2.token, nonce)))).toEqual({ status: 400, error: 'invalid_nonce' });
  });

  it('of two requests with one c_nonce at once, one on each instance, exactly one gets it', async () => {
    router.route = 'a';
    for (let round = 0; round < 5; round++) {
      const [w1, w2] = await Promise.all([wallet(), wallet()]);
      const nonce = await vci.nonce();
      router.route = 'alternate';
      const answers = await Promise.all([vci.credential(w1.key, w1.token, nonce), vci.credential(w2.key, w2.token, nonce)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(new Set(router.served.slice(-2).map((s) => s.instance))).toEqual(new Set(['a', 'b']));
      router.route = 'a';
    }
  });

  it('refuses on one instance a DPoP proof the other already took', async () => {
    router.route = 'a';
    const { key, token } = await wallet();
    const proof = await vci.credentialProof(key, token);
    // Authenticated on a (its token) and refused for its key proof's nonce: the DPoP proof is spent all the same.
    expect(await errorOf(await on('a', () => vci.credential(key, token, 'not-a-nonce', proof)))).toEqual({ status: 400, error: 'invalid_nonce' });
    expect(await errorOf(await on('b', async () => vci.credential(key, token, await vci.nonce(), proof)))).toEqual({
      status: 401,
      error: 'invalid_dpop_proof',
    });
    // And a token request's proof that got a token, with another offer's codes.
    const tokenProof = await vci.tokenProof(key);
    expect((await on('b', async () => vci.token(key, await vci.offerCodes(), tokenProof))).status).toBe(200);
    expect(await errorOf(await on('a', async () => vci.token(key, await vci.offerCodes(), tokenProof)))).toEqual({ status: 400, error: 'invalid_dpop_proof' });
  });

  it('keeps no Redis key and no database row for unauthenticated calls to either instance', async () => {
    router.route = 'a';
    await vci.nonce();
    const keysBefore = await spentKeys();
    const rowsBefore = await tableRows(a.dataSource);
    router.route = 'alternate';
    for (let i = 0; i < 100; i++) {
      const key = await testKey();
      const nonce = await vci.nonce();
      const token = madeUp();
      expect(await errorOf(await vci.token(key, { grant_type: PRE_AUTH, 'pre-authorized_code': madeUp(), tx_code: '123456' }))).toEqual({
        status: 400,
        error: 'invalid_grant',
      });
      expect(await errorOf(await vci.credential(key, token, nonce, await vci.credentialProof(key, token)))).toEqual({ status: 401, error: 'invalid_token' });
    }
    expect(await spentKeys()).toEqual(keysBefore);
    expect(await tableRows(a.dataSource)).toEqual(rowsBefore);
    // What an authenticated request spends is there, and expires with the value it stands for.
    router.route = 'a';
    const w = await wallet();
    expect((await vci.credential(w.key, w.token, await vci.nonce())).status).toBe(200);
    const added = (await spentKeys()).filter((k) => !keysBefore.includes(k));
    expect(added.map((k) => k.slice(prefix.length).split(':').slice(0, 2).join(':')).sort()).toEqual(['vci-spent:c_nonce', 'vci-spent:dpop', 'vci-spent:dpop']);
    const redis = a.app.get<symbol, RedisHandle>(REDIS, { strict: false })!;
    for (const k of added) expect(await redis.pttl(k)).toBeGreaterThan(0);
    for (const k of added) expect(await redis.pttl(k)).toBeLessThanOrEqual(361_000);
  });
});
