import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, firstResponse, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** Spec 4.4: the token request's parameters come in the query string, and redirect_uri is optional. */
describe('token endpoint parameters (spec 4.4)', () => {
  let t: TestApp;
  let single: { client_id: string; client_secret: string };
  let double: { client_id: string; client_secret: string };
  let singleConfig: client.Configuration;
  let doubleConfig: client.Configuration;

  const codeFor = async (config: client.Configuration) => {
    const req = await authorizationRequest(config);
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    return { code: callback.searchParams.get('code')!, verifier: req.verifier };
  };
  const token = async (m: { client_id: string; client_secret: string }, query: Record<string, string>, body?: Record<string, string>) => {
    const res = await fetch(`${t.baseUrl}/oidc/token?${new URLSearchParams(query)}`, {
      method: 'POST',
      headers: { authorization: basic(m.client_id, m.client_secret), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: body ? new URLSearchParams(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  };

  beforeAll(async () => {
    t = await startTestApp();
    const admin = adminClient(t.baseUrl, t.adminToken);
    single = await admin.createMerchant({ name: 'One URI', redirect_uris: [REDIRECT_URI] });
    double = await admin.createMerchant({ name: 'Two URIs', redirect_uris: [REDIRECT_URI, 'https://two.example/cb'] });
    singleConfig = await discover(`${t.baseUrl}/oidc`, single.client_id, single.client_secret);
    doubleConfig = await discover(`${t.baseUrl}/oidc`, double.client_id, double.client_secret);
  });
  afterAll(() => t?.close());

  it('exchanges a code sent entirely in the query string, without a body', async () => {
    const { code, verifier } = await codeFor(singleConfig);
    const res = await token(single, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(res.status).toBe(200);
    expect(res.body.id_token).toBeTruthy();
  });

  it('lets the body win when the query and the body both carry a parameter', async () => {
    const { code, verifier } = await codeFor(singleConfig);
    const res = await token(
      single,
      { code: 'not-the-code', grant_type: 'refresh_token' },
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT_URI },
    );
    expect(res.status).toBe(200);

    const other = await codeFor(singleConfig);
    const refused = await token(
      single,
      { code: other.code },
      { grant_type: 'authorization_code', code: 'not-the-code', code_verifier: other.verifier, redirect_uri: REDIRECT_URI },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
  });

  it('mixes query and body parameters', async () => {
    const { code, verifier } = await codeFor(singleConfig);
    const res = await token(single, { code, code_verifier: verifier }, { grant_type: 'authorization_code', redirect_uri: REDIRECT_URI });
    expect(res.status).toBe(200);
  });

  it('never takes the client secret from the query string', async () => {
    const { code, verifier } = await codeFor(singleConfig);
    const res = await fetch(`${t.baseUrl}/oidc/token?${new URLSearchParams({ client_id: single.client_id, client_secret: single.client_secret })}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT_URI }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('accepts a token request without redirect_uri when the merchant has exactly one', async () => {
    const { code, verifier } = await codeFor(singleConfig);
    const res = await token(single, { grant_type: 'authorization_code', code, code_verifier: verifier });
    expect(res.status).toBe(200);
    expect(res.body.access_token).toBeTruthy();
  });

  it('still requires redirect_uri at the token endpoint when the merchant has several', async () => {
    const { code, verifier } = await codeFor(doubleConfig);
    const res = await token(double, { grant_type: 'authorization_code', code, code_verifier: verifier });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.error_description).toContain('redirect_uri');
  });

  it('still requires redirect_uri at the authorization endpoint (spec 4.2), even with one registered', async () => {
    const req = await authorizationRequest(singleConfig);
    req.url.searchParams.delete('redirect_uri');
    const page = await firstResponse(t.baseUrl, req.url);
    expect(page.status).toBe(400);
    expect(page.html).toContain('redirect_uri');
  });
});
