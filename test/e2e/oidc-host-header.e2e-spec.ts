import { request } from 'node:http';
import { proxyMisconfiguration } from '../../src/oidc/provider/public-origin.js';
import { adminClient } from '../support/admin-client.js';
import { productionTestEnv, startTestApp, type TestApp } from '../support/test-app.js';
import { MERCHANT_ORIGIN } from '../support/oidc-flow.js';

/** A raw request, so that Host and X-Forwarded-* can be set to anything, as an attacker would. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const FORGED = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

describe('Host header trust (TRUST_PROXY=false)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('builds every discovery URL from BASE_URL, whatever Host and X-Forwarded-* say', async () => {
    const res = await rawGet(`${t.baseUrl}/oidc/.well-known/openid-configuration`, FORGED);
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.body) as Record<string, unknown>;
    expect(res.body).not.toContain('evil.example');
    for (const member of ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint', 'pushed_authorization_request_endpoint']) {
      expect(String(doc[member]).startsWith(t.baseUrl)).toBe(true);
    }
  });

  it('does not let a forged Host reach the redirect to the broker page', async () => {
    const admin = adminClient(t.baseUrl, t.adminToken);
    const m = await admin.createMerchant({ name: 'Shop', redirect_uris: [`${MERCHANT_ORIGIN}/callback`] });
    const query = new URLSearchParams({
      client_id: m.client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: `${MERCHANT_ORIGIN}/callback`,
      state: 's1',
      nonce: 'n1',
    });
    const res = await rawGet(`${t.baseUrl}/its/index.html?${query}`, FORGED);
    expect(res.status).toBe(303);
    expect(String(res.headers.location)).not.toContain('evil.example');
    expect(new URL(String(res.headers.location), t.baseUrl).origin).toBe(new URL(t.baseUrl).origin);
  });
});

describe('production behind a TLS proxy without TRUST_PROXY', () => {
  let t: TestApp;
  let local = '';
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        ...productionTestEnv(),
        TRUST_PROXY: 'false',
      },
    });
    local = `http://127.0.0.1:${t.env.PORT}`;
  });
  afterAll(() => t?.close());

  it('is named at start-up (main prints it as a warning)', () => {
    expect(proxyMisconfiguration(t.config)).toMatch(/TRUST_PROXY=false/);
    expect(proxyMisconfiguration({ ...t.config, trustProxy: true })).toBeUndefined();
  });

  it('answers a plain-http authorization request with a clear error naming the misconfiguration, not a 500', async () => {
    const admin = adminClient(local, t.adminToken);
    const m = await admin.createMerchant({ name: 'Shop', redirect_uris: ['https://shop.example/callback'] });
    const query = new URLSearchParams({
      client_id: m.client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: 'https://shop.example/callback',
      state: 's1',
    });
    const res = await rawGet(`${local}/its/index.html?${query}`, { host: 'broker.example' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body).toContain('TRUST_PROXY');
    // Discovery is not answered with http:// URLs either (it would not be BASE_URL's).
    const discovery = await rawGet(`${local}/oidc/.well-known/openid-configuration`, { host: 'broker.example' });
    expect(discovery.status).toBeLessThan(500);
    expect(discovery.body).not.toContain('http://broker.example');
  });
});
