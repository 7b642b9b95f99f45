import type { Express } from 'express';
import { adminClient } from '../support/admin-client.js';
import { REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The engine's routes skip Express's router (src/bootstrap/engine-light-path.ts) but not the edge: the same request
 * id, access log, security headers, character refusal and rate limits as every other request, in the same order.
 */
describe('the engine routes pass the edge without Express', () => {
  let t: TestApp;
  type Merchant = { client_id: string; client_secret: string };
  let merchant: Merchant;
  let limitedMerchant: Merchant;
  let routed: string[];
  let restore: () => void;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMITS: 'on', RATE_LIMIT_TOKEN: '2' } });
    const admin = adminClient(t.baseUrl, t.adminToken);
    // The token endpoint's limit is per merchant: one for the limit's test, one for the others.
    merchant = await admin.createMerchant({ name: 'Light path', redirect_uris: [REDIRECT_URI] });
    limitedMerchant = await admin.createMerchant({ name: 'Light path, limited', redirect_uris: [REDIRECT_URI] });
    // What reaches Express's router: its application's handle, called for each request it serves.
    const express = t.app.getHttpAdapter().getInstance() as Express & { handle: (...args: unknown[]) => unknown };
    const handle = express.handle;
    express.handle = function (this: unknown, ...args: unknown[]) {
      routed.push((args[0] as { url: string }).url);
      return handle.apply(this, args);
    };
    restore = () => void (express.handle = handle);
  });
  beforeEach(() => {
    routed = [];
  });
  afterAll(async () => {
    restore?.();
    await t?.close();
  });

  const token = (body: string, m = merchant) =>
    fetch(`${t.baseUrl}/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${m.client_id}:${m.client_secret}`).toString('base64')}`,
      },
      body,
    });
  const unknownCode = new URLSearchParams({ grant_type: 'authorization_code', code: 'unknown', redirect_uri: REDIRECT_URI }).toString();

  it('answers the engine routes without Express, everything else through it', async () => {
    expect((await fetch(`${t.baseUrl}/oidc/jwks`)).status).toBe(200);
    expect((await fetch(`${t.baseUrl}/oidc/.well-known/openid-configuration`)).status).toBe(200);
    expect((await token(unknownCode)).status).toBe(400);
    expect(routed).toEqual([]);
    expect((await fetch(`${t.baseUrl}/health/live`)).status).toBe(200);
    // Not an engine request (isProviderRequest: the token endpoint takes POST): Nest answers it, with the error object.
    const deleted = await fetch(`${t.baseUrl}/oidc/token`, { method: 'DELETE' });
    expect(deleted.status).toBeGreaterThanOrEqual(400);
    expect(deleted.status).toBeLessThan(500);
    expect(await deleted.json()).toHaveProperty('error');
    expect(routed).toEqual(['/health/live', '/oidc/token']);
  });

  it('gives engine answers the request id and security headers of every answer', async () => {
    const res = await fetch(`${t.baseUrl}/oidc/jwks`, { headers: { 'x-request-id': 'support-case-67890' } });
    expect(res.headers.get('x-request-id')).toBe('support-case-67890');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect((await fetch(`${t.baseUrl}/oidc/jwks`)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses NULs and lone surrogates before the engine reads them', async () => {
    const page = await fetch(`${t.baseUrl}/its/index.html?client_id=${merchant.client_id}&state=%00`, { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('data-error="invalid_request"');
    // A lone surrogate in JSON the engine would decode (a pushed request's claims).
    const claims = encodeURIComponent('{"userinfo":{"given_name":{"value":"\\udfff"}}}');
    const refused = await fetch(`${t.baseUrl}/oidc/par`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${merchant.client_id}:${merchant.client_secret}`).toString('base64')}`,
      },
      body: `response_type=code&scope=openid&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&state=s&claims=${claims}`,
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('lone UTF-16 surrogate') });
    expect(routed).toEqual([]);
  });

  it('rate-limits the token endpoint on the light path', async () => {
    expect((await token(unknownCode, limitedMerchant)).status).toBe(400);
    expect((await token(unknownCode, limitedMerchant)).status).toBe(400);
    const limited = await token(unknownCode, limitedMerchant);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
