import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { addLogSink, setLogLevel } from '../../src/common/logging/logger.js';
import { adminClient } from '../support/admin-client.js';
import { REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const authorize = (t: TestApp, headers: Record<string, string> = {}, query = 'client_id=nobody&ui_locale=de_DE') =>
  fetch(`${t.baseUrl}/its/index.html?${query}`, { headers, redirect: 'manual' });

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('rate limits in one instance (in-process windows, TRUST_PROXY)', () => {
  let t: TestApp;
  let basicMerchant: { client_id: string; client_secret: string };
  let postMerchant: { client_id: string; client_secret: string };

  beforeAll(async () => {
    t = await startTestApp({
      env: { RATE_LIMITS: 'on', TRUST_PROXY: 'true', RATE_LIMIT_AUTHORIZATION: '3', RATE_LIMIT_TOKEN: '2', RATE_LIMIT_APP_API: '3', RATE_LIMIT_FACE: '1' },
    });
    const admin = adminClient(t.baseUrl, t.adminToken);
    basicMerchant = await admin.createMerchant({ name: 'Basic shop', redirect_uris: [REDIRECT_URI] });
    postMerchant = await admin.createMerchant({ name: 'Post shop', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'client_secret_post' });
  });
  afterAll(() => t?.close());

  it('limits authorization requests per client IP: 429, Retry-After and the translated error page', async () => {
    const ip = { 'x-forwarded-for': '203.0.113.10' };
    for (let i = 0; i < 3; i++) expect((await authorize(t, ip)).status).toBe(400);
    const refused = await authorize(t, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await refused.text();
    expect(page).toContain('data-error="too_many_requests"');
    expect(page).toContain('Von hier kamen in kurzer Zeit zu viele Anmeldeversuche');
    // The broker pages after the authorization request count in the same budget (same address).
    expect((await fetch(`${t.baseUrl}/its/interaction/whatever`, { headers: ip, redirect: 'manual' })).status).toBe(429);
    // Another client (TRUST_PROXY: the address the proxy reports) has its own budget; static assets are not counted.
    expect((await authorize(t, { 'x-forwarded-for': '203.0.113.11' })).status).toBe(400);
    expect((await fetch(`${t.baseUrl}/its/assets/favicon.svg`, { headers: ip })).status).toBe(200);
  });

  it('limits the token endpoint per merchant, named by Basic credentials or by the form body, which still reaches the engine', async () => {
    const tokenRequest = (headers: Record<string, string>, body: Record<string, string>) =>
      fetch(`${t.baseUrl}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: REDIRECT_URI, ...body }),
      });
    // Different addresses each time: the budget follows the merchant, not the caller's IP.
    const viaBasic = (n: number) =>
      tokenRequest({ authorization: basic(basicMerchant.client_id, basicMerchant.client_secret), 'x-forwarded-for': `198.51.100.${n}` }, {});
    const viaBody = (n: number) =>
      tokenRequest({ 'x-forwarded-for': `198.51.100.${n}` }, { client_id: postMerchant.client_id, client_secret: postMerchant.client_secret });

    for (const n of [1, 2]) {
      const res = await viaBasic(n);
      expect({ status: res.status, body: await res.json() }).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    }
    const refused = await viaBasic(3);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await refused.json()) as Record<string, string>;
    expect(body).toMatchObject({ error: 'temporarily_unavailable' });
    expect(body.error_description).toMatch(/too many requests; retry after \d+ seconds/);

    // The other merchant is not affected; its credentials in the body were read by the engine (invalid_grant, not invalid_client).
    for (const n of [4, 5]) {
      const res = await viaBody(n);
      expect({ status: res.status, body: await res.json() }).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    }
    expect((await viaBody(6)).status).toBe(429);
  });

  it('limits the app API per client IP, in its error object', async () => {
    const ip = { 'x-forwarded-for': '192.0.2.20', 'content-type': 'application/json' };
    const open = () => fetch(`${t.baseUrl}/app/v1/sessions`, { method: 'POST', headers: ip, body: JSON.stringify({ qr_token: 'x'.repeat(43) }) });
    for (let i = 0; i < 3; i++) expect((await open()).status).toBeLessThan(429);
    const refused = await open();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: expect.stringMatching(/^too many requests/),
      request_id: expect.any(String),
    });
  });

  it("counts wallets' calls (request_uri, response_uri) in the app API's budget per address", async () => {
    const ip = { 'x-forwarded-for': '192.0.2.21' };
    const fetchRequest = () => fetch(`${t.baseUrl}/wallet/v1/requests/${'x'.repeat(32)}`, { headers: ip });
    for (let i = 0; i < 3; i++) expect((await fetchRequest()).status).toBe(404);
    const refused = await fetchRequest();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('limits the face step per verification session (its bearer token), whatever the address', async () => {
    const step = (token: string, n: number) =>
      fetch(`${t.baseUrl}/app/v1/session/liveness-challenge`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': `192.0.2.${100 + n}` },
      });
    const session = randomBytes(24).toString('base64url');
    expect((await step(session, 1)).status).toBe(404); // no such session: counted all the same
    expect((await step(session, 2)).status).toBe(429);
    expect((await step(randomBytes(24).toString('base64url'), 3)).status).toBe(404);
  });
});

describe('rate limits without TRUST_PROXY', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('counts the connection address: a forged X-Forwarded-For does not buy a new budget', async () => {
    t = await startTestApp({ env: { RATE_LIMITS: 'on', RATE_LIMIT_AUTHORIZATION: '2' } });
    expect((await authorize(t, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(400);
    expect((await authorize(t, { 'x-forwarded-for': '203.0.113.2' })).status).toBe(400);
    expect((await authorize(t, { 'x-forwarded-for': '203.0.113.3' })).status).toBe(429);
  });
});

describe('rate limits shared by two instances through Redis', () => {
  const prefix = `test:ratelimit:${randomBytes(6).toString('hex')}:`;
  let a: TestApp;
  let b: TestApp;
  const redis = new Redis(REDIS_URL, { lazyConnect: true });

  beforeAll(async () => {
    const env = { RATE_LIMITS: 'on', REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix, RATE_LIMIT_AUTHORIZATION: '4' };
    a = await startTestApp({ env });
    b = await startTestApp({ env });
    await redis.connect();
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await a?.close();
    await b?.close();
  });

  it('counts requests to either instance in one window', async () => {
    for (const app of [a, b, a, b]) expect((await authorize(app)).status).toBe(400);
    expect((await authorize(a)).status).toBe(429);
    expect((await authorize(b)).status).toBe(429);
    const keys = await redis.keys(`${prefix}*`);
    expect(keys).toHaveLength(1);
    // The key names the bucket and a hash, never the address; it expires with the window.
    expect(keys[0]).toMatch(new RegExp(`^${prefix}authorization:ip:[0-9a-f]{32}$`));
    expect(await redis.pttl(keys[0])).toBeGreaterThan(0);
  });
});

describe('rate limits with Redis unreachable', () => {
  let t: TestApp;
  const lines: string[] = [];
  let stop: () => void = () => undefined;
  afterAll(async () => {
    await t?.close();
    stop();
    setLogLevel('silent');
    // ioredis leaves the connect timer of its last attempt (connectTimeout, 2 s) running after disconnect():
    // let it end here, or Jest reports an open handle.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
  });

  it('fails open: every request is answered, with one log line for the outage', async () => {
    stop = addLogSink((line) => lines.push(line), { capture: true });
    const token = randomBytes(32).toString('base64url');
    t = await startTestApp({
      env: { RATE_LIMITS: 'on', REDIS_URL: `redis://127.0.0.1:${await closedPort()}`, RATE_LIMIT_AUTHORIZATION: '1', LOG_LEVEL: 'warn', METRICS_TOKEN: token },
    });
    for (let i = 0; i < 5; i++) expect((await authorize(t)).status).toBe(400);
    expect(lines.filter((l) => l.includes('rate limiter store unavailable'))).toHaveLength(1);
    const metrics = await (await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(metrics).toMatch(/^broker_rate_limiter_errors_total 5$/m);
    expect(metrics).toMatch(/^broker_redis_connected 0$/m);
  });
});
