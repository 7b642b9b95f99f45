import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { OIDC_ROUTES } from '../../src/oidc/provider/routes.js';
import { REDIS, type RedisHandle } from '../../src/redis/redis.module.js';
import { adminClient } from '../support/admin-client.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';
import { dpopKeys, dpopProof, tokenRequest, userinfoRequest } from '../support/dpop-proof.js';
import { startInstanceRouter, type InstanceRouter } from '../support/instance-router.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const AT_ONCE_TRIALS = 4;

interface Pair {
  router: InstanceRouter;
  a: TestApp;
  b: TestApp;
  merchant: { client_id: string; client_secret: string };
  keys: client.CryptoKeyPair;
  accessToken: string;
  userinfoUrl: string;
}

/** Two instances on one store behind one address (so one proof's htu is right on both), and a DPoP-bound token of a login. */
async function startPair(env: Record<string, string | undefined>): Promise<Pair> {
  const router = await startInstanceRouter();
  const a = await startTestApp({ env: { ...env, BASE_URL: router.url } });
  const b = await startTestApp({ sameDatabaseAs: a, env: { ...env, BASE_URL: router.url } });
  router.instances = { a: a.config.port, b: b.config.port };
  router.route = 'a';
  const merchant = await adminClient(router.url, a.adminToken).createMerchant({
    name: 'DPoP shop',
    redirect_uris: [REDIRECT_URI],
    dpop_bound_access_tokens: true,
  });
  const config = await discover(`${router.url}/oidc`, merchant.client_id, merchant.client_secret);
  const request = await authorizationRequest(config);
  const { callback } = await loginWithTestEid(router.url, request.url);
  const keys = await dpopKeys();
  const DPoP = client.getDPoPHandle(config, keys);
  const tokens = await client.authorizationCodeGrant(
    config,
    callback,
    { pkceCodeVerifier: request.verifier, expectedState: request.state, expectedNonce: request.nonce },
    undefined,
    { DPoP },
  );
  return { router, a, b, merchant, keys, accessToken: tokens.access_token, userinfoUrl: `${router.url}${OIDC_ROUTES.userinfo}` };
}

async function closePair(pair: Pair | undefined): Promise<void> {
  await pair?.b.close();
  await pair?.a.close();
  await pair?.router.close();
}

/** RFC 9449 §11.1 across instances: a proof used on one instance is refused on the other, one after the other and at once. */
function replayAcrossInstances(pair: () => Pair) {
  it('RFC 9449 §11.1: refuses on the second instance a proof the first one accepted', async () => {
    const { router, keys, accessToken, userinfoUrl } = pair();
    const proof = await dpopProof(keys, { htm: 'GET', htu: userinfoUrl, accessToken });
    router.route = 'a';
    expect((await userinfoRequest(userinfoUrl, accessToken, proof)).status).toBe(200);
    router.route = 'b';
    const replayed = await userinfoRequest(userinfoUrl, accessToken, proof);
    expect(replayed).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    // The second instance takes a fresh proof of the same key: what it refused was the replay.
    expect((await userinfoRequest(userinfoUrl, accessToken, await dpopProof(keys, { htm: 'GET', htu: userinfoUrl, accessToken }))).status).toBe(200);
  });

  it('RFC 9449 §11.1: accepts a proof sent to both instances at once on one of them only', async () => {
    const { a, b, keys, accessToken } = pair();
    for (let trial = 0; trial < AT_ONCE_TRIALS; trial++) {
      const proof = await dpopProof(keys, { htm: 'GET', htu: pair().userinfoUrl, accessToken });
      // Straight to each instance: without TRUST_PROXY each takes its public URL from BASE_URL, the router's, as the proof says.
      const answers = await Promise.all(
        [a, b, a, b].map((app) =>
          fetch(`http://127.0.0.1:${app.config.port}${OIDC_ROUTES.userinfo}`, {
            headers: { authorization: `DPoP ${accessToken}`, dpop: proof, accept: 'application/json' },
          }).then((res) => ({ status: res.status, challenge: res.headers.get('www-authenticate') })),
        ),
      );
      expect({ trial, accepted: answers.filter((r) => r.status === 200).length }).toEqual({ trial, accepted: 1 });
      // The losers of the race are told what the engine tells a replay it saw itself (not a client authentication failure).
      for (const lost of answers.filter((r) => r.status !== 200))
        expect(lost).toMatchObject({ status: 401, challenge: expect.stringMatching(/^DPoP .*error="invalid_token"/) });
    }
  });
}

describeWithPostgres('DPoP proofs on two instances sharing only PostgreSQL', () => {
  let pair: Pair;
  beforeAll(async () => {
    // No Redis even when the suite has one: the replay markers are rows of oidc_payloads.
    pair = await startPair({ REDIS_URL: undefined, REDIS_KEY_PREFIX: undefined });
  });
  afterAll(() => closePair(pair));

  replayAcrossInstances(() => pair);

  it('keeps a proof marker for the whole window in which the proof is acceptable (600 s: iat may be 300 s either way)', async () => {
    const { keys, accessToken, userinfoUrl, a } = pair;
    expect((await userinfoRequest(userinfoUrl, accessToken, await dpopProof(keys, { htm: 'GET', htu: userinfoUrl, accessToken }))).status).toBe(200);
    const [row] = (await a.dataSource.query(
      `SELECT extract(epoch FROM expires_at - now()) AS seconds FROM oidc_payloads WHERE model = 'ReplayDetection' ORDER BY expires_at DESC LIMIT 1`,
    )) as { seconds: string }[];
    expect(Number(row.seconds)).toBeGreaterThan(590);
  });
});

describeWithPostgres('DPoP proofs on two instances sharing Redis', () => {
  let pair: Pair;
  let prefix: string;
  beforeAll(async () => {
    prefix = `test-${randomBytes(6).toString('hex')}:`;
    pair = await startPair({ REDIS_URL, REDIS_KEY_PREFIX: prefix });
  });
  afterAll(() => closePair(pair));

  replayAcrossInstances(() => pair);

  it('keeps the proof markers in Redis, for the whole acceptance window', async () => {
    const redis = pair.a.app.get<symbol, RedisHandle>(REDIS, { strict: false })!;
    const markers = await redis.keys(`${prefix}oidc:ReplayDetection:*`);
    expect(markers.length).toBeGreaterThan(0);
    expect(await redis.pttl(markers[0])).toBeGreaterThan(590_000);
    expect(await pair.a.dataSource.query(`SELECT 1 FROM oidc_payloads WHERE model = 'ReplayDetection'`)).toEqual([]);
  });
});

describeWithPostgres('DPoP server nonces (DPOP_NONCE_SECRET) on two instances', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ DPOP_NONCE_SECRET: randomBytes(32).toString('base64url') });
  });
  afterAll(() => closePair(pair));

  it('RFC 9449 §8: answers use_dpop_nonce with a DPoP-Nonce header, and the retry with it succeeds on the other instance', async () => {
    const { router, merchant, keys, accessToken, userinfoUrl } = pair;
    const tokenUrl = `${router.url}${OIDC_ROUTES.token}`;
    router.route = 'a';
    const params = { grant_type: 'authorization_code', code: 'no-such-code', redirect_uri: REDIRECT_URI, code_verifier: 'v'.repeat(43) };
    const asked = await tokenRequest(tokenUrl, merchant, params, await dpopProof(keys, { htm: 'POST', htu: tokenUrl }));
    expect(asked).toMatchObject({ status: 400, body: { error: 'use_dpop_nonce' } });
    const nonce = asked.headers.get('dpop-nonce');
    expect(nonce).toEqual(expect.any(String));
    router.route = 'b';
    // The proof passes with the nonce (the made-up code is what is refused then).
    const retried = await tokenRequest(tokenUrl, merchant, params, await dpopProof(keys, { htm: 'POST', htu: tokenUrl, nonce: nonce! }));
    expect(retried).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const noNonce = await userinfoRequest(userinfoUrl, accessToken, await dpopProof(keys, { htm: 'GET', htu: userinfoUrl, accessToken }));
    expect(noNonce.status).toBe(401);
    expect(noNonce.headers.get('www-authenticate')).toMatch(/^DPoP .*error="use_dpop_nonce"/);
    const fresh = noNonce.headers.get('dpop-nonce')!;
    router.route = 'a';
    const withNonce = await userinfoRequest(userinfoUrl, accessToken, await dpopProof(keys, { htm: 'GET', htu: userinfoUrl, accessToken, nonce: fresh }));
    expect(withNonce.status).toBe(200);
    // A nonce this service did not issue is refused as well.
    const forged = await userinfoRequest(userinfoUrl, accessToken, await dpopProof(keys, { htm: 'GET', htu: userinfoUrl, accessToken, nonce: 'x'.repeat(43) }));
    expect(forged.headers.get('www-authenticate')).toMatch(/error="use_dpop_nonce"/);
  });
});
