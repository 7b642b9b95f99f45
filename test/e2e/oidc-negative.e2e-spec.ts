import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, firstResponse, loginWithTestEid, MERCHANT_ORIGIN, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('OIDC failure paths', () => {
  let t: TestApp;
  let issuer: string;
  let admin: ReturnType<typeof adminClient>;
  let merchant: { client_id: string; client_secret: string };
  let config: client.Configuration;

  const exchange = (code: string, verifier: string, m = merchant) =>
    fetch(`${t.baseUrl}/oidc/token`, {
      method: 'POST',
      headers: { authorization: basic(m.client_id, m.client_secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }),
    });
  const userinfo = (accessToken: string) => fetch(`${t.baseUrl}/oidc/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  const errorRedirect = async (url: URL) => {
    const page = await firstResponse(t.baseUrl, url);
    expect(page.status).toBe(303);
    const location = new URL(page.location!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    return location.searchParams;
  };

  beforeAll(async () => {
    t = await startTestApp();
    issuer = `${t.baseUrl}/oidc`;
    admin = adminClient(t.baseUrl, t.adminToken);
    merchant = await admin.createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI] });
    config = await discover(issuer, merchant.client_id, merchant.client_secret);
  });
  afterAll(() => t?.close());

  it('refuses an authorization request without state, redirecting with invalid_request', async () => {
    const req = await authorizationRequest(config);
    req.url.searchParams.delete('state');
    const params = await errorRedirect(req.url);
    expect(params.get('error')).toBe('invalid_request');
    expect(params.get('error_description')).toContain('state');
    expect(params.get('code')).toBeNull();
  });

  it('refuses plain PKCE', async () => {
    const req = await authorizationRequest(config, { code_challenge_method: 'plain', code_challenge: 'a'.repeat(43) });
    const params = await errorRedirect(req.url);
    expect(params.get('error')).toBe('invalid_request');
    expect(params.get('error_description')).toMatch(/code_challenge_method/);
    expect(params.get('state')).toBe(req.state);
  });

  it('requires PKCE from a PSD2 merchant', async () => {
    const psd2 = await admin.createMerchant({ name: 'Bank', redirect_uris: [REDIRECT_URI], psd2: true });
    const psd2Config = await discover(issuer, psd2.client_id, psd2.client_secret);
    const req = await authorizationRequest(psd2Config);
    req.url.searchParams.delete('code_challenge');
    req.url.searchParams.delete('code_challenge_method');
    const params = await errorRedirect(req.url);
    expect(params.get('error')).toBe('invalid_request');
    expect(params.get('error_description')).toMatch(/PKCE/i);
    // The same merchant with PKCE gets through to the broker page.
    const ok = await firstResponse(t.baseUrl, (await authorizationRequest(psd2Config)).url);
    expect(ok.location).toMatch(/\/its\/interaction\//);
  });

  it('refuses a wrong code verifier with invalid_grant', async () => {
    const req = await authorizationRequest(config);
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    const res = await exchange(callback.searchParams.get('code')!, client.randomPKCECodeVerifier());
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('shows an error page, without redirecting, for an unregistered redirect URI', async () => {
    const req = await authorizationRequest(config, { redirect_uri: `${MERCHANT_ORIGIN}/elsewhere` });
    const page = await firstResponse(t.baseUrl, req.url);
    expect(page.status).toBe(400);
    expect(page.location).toBeUndefined();
    expect(page.html).toContain('redirect_uri');
    expect(page.html).toContain('<html lang="en-GB">');
  });

  it('refuses a replayed code and invalidates the tokens issued with it', async () => {
    const req = await authorizationRequest(config);
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    const code = callback.searchParams.get('code')!;
    const first = await exchange(code, req.verifier);
    expect(first.status).toBe(200);
    const { access_token } = (await first.json()) as { access_token: string };
    expect((await userinfo(access_token)).status).toBe(200);
    const replay = await exchange(code, req.verifier);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
    const after = await userinfo(access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer .*invalid_token/);
  });

  describe('request objects', () => {
    let signing: Awaited<ReturnType<typeof generateKeyPair>>;
    let signed: { client_id: string; client_secret: string };

    beforeAll(async () => {
      signing = await generateKeyPair('RS256', { extractable: true });
      signed = await admin.createMerchant({
        name: 'JAR shop',
        redirect_uris: [REDIRECT_URI],
        request_object_signing_alg: 'RS256',
        jwks: { keys: [{ ...(await exportJWK(signing.publicKey)), kid: 'ro-1' }] },
      });
    });

    const requestObject = (key: Parameters<SignJWT['sign']>[0], kid = 'ro-1', claims: Record<string, string> = {}) =>
      new SignJWT({
        response_type: 'code',
        client_id: signed.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'openid profile',
        state: 'state-from-object',
        nonce: 'nonce-from-object',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGcSjw2cfE',
        code_challenge_method: 'S256',
        ...claims,
      })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(signed.client_id)
        .setAudience(issuer)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(key);

    const authorizeWith = (params: Record<string, string>) =>
      new URL(
        `${t.baseUrl}/its/index.html?${new URLSearchParams({ client_id: signed.client_id, response_type: 'code', scope: 'openid', redirect_uri: REDIRECT_URI, ...params })}`,
      );

    it('accepts a request object signed with the registered key', async () => {
      const page = await firstResponse(t.baseUrl, authorizeWith({ request: await requestObject(signing.privateKey) }));
      expect(page.location).toMatch(/\/its\/interaction\//);
    });

    it('refuses a request object signed with another key', async () => {
      const other = await generateKeyPair('RS256');
      const params = await errorRedirect(authorizeWith({ request: await requestObject(other.privateKey) }));
      expect(params.get('error')).toBe('invalid_request_object');
    });

    describe('by reference', () => {
      let server: Server;
      let served = '';
      let serverUrl = '';
      beforeAll(async () => {
        server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/oauth-authz-req+jwt' }).end(served));
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/request.jwt`;
        // Only registered request_uris are fetched (require_request_uri_registration).
        const registered = await admin.call('PATCH', `/admin/v1/merchants/${signed.client_id}`, { request_uris: [serverUrl, 'http://127.0.0.1:1/nothing'] });
        expect(registered.status).toBe(200);
      });
      afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

      it('refuses an unsigned request object over plain http', async () => {
        served = new UnsecuredJWT({ response_type: 'code', client_id: signed.client_id, redirect_uri: REDIRECT_URI, scope: 'openid', state: 's' })
          .setIssuer(signed.client_id)
          .setAudience(issuer)
          .encode();
        const params = await errorRedirect(authorizeWith({ request_uri: serverUrl, state: 'outer-state' }));
        expect(params.get('error')).toBe('invalid_request_uri');
        // One description for every request_uri failure (no oracle); the reason is in the log.
        expect(params.get('error_description')).toBe('the request_uri could not be used');
        expect(params.get('state')).toBe('outer-state');
      });

      it('accepts a signed request object over http, verified against the merchant key', async () => {
        served = await requestObject(signing.privateKey);
        const page = await firstResponse(t.baseUrl, authorizeWith({ request_uri: serverUrl }));
        expect(page.location).toMatch(/\/its\/interaction\//);
      });

      it('refuses an unreachable request_uri', async () => {
        const params = await errorRedirect(authorizeWith({ request_uri: 'http://127.0.0.1:1/nothing', state: 'x' }));
        expect(params.get('error')).toBe('invalid_request_uri');
      });
    });
  });

  describe('token invalidation (DELETE /oidc/token)', () => {
    const del = (token: string | undefined, m = merchant, where: 'query' | 'body' = 'query') =>
      fetch(`${t.baseUrl}/oidc/token${where === 'query' && token ? `?token=${encodeURIComponent(token)}` : ''}`, {
        method: 'DELETE',
        headers: { authorization: basic(m.client_id, m.client_secret), 'content-type': 'application/x-www-form-urlencoded' },
        body: where === 'body' && token ? new URLSearchParams({ token }).toString() : undefined,
      });

    const freshAccessToken = async () => {
      const req = await authorizationRequest(config);
      const { callback } = await loginWithTestEid(t.baseUrl, req.url);
      return ((await (await exchange(callback.searchParams.get('code')!, req.verifier)).json()) as { access_token: string }).access_token;
    };

    it('answers 403 for an unknown token', async () => {
      const res = await del('not-a-token');
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: 'invalid_token' });
    });

    it('invalidates a valid token (200, empty body); user-info then answers 401; a second DELETE answers 403', async () => {
      const token = await freshAccessToken();
      const res = await del(token, merchant, 'body');
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('');
      const after = await userinfo(token);
      expect(after.status).toBe(401);
      expect(after.headers.get('www-authenticate')).toContain('invalid_token');
      expect((await del(token)).status).toBe(403);
    });

    it("answers 403 for another merchant's token and leaves it valid", async () => {
      const token = await freshAccessToken();
      const other = await admin.createMerchant({ name: 'Other', redirect_uris: [REDIRECT_URI] });
      expect((await del(token, other)).status).toBe(403);
      expect((await userinfo(token)).status).toBe(200);
    });

    it('answers 401 for bad merchant credentials and 400 without a token', async () => {
      const bad = await del('x', { client_id: merchant.client_id, client_secret: 'wrong' });
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toContain('Basic');
      const none = await del(undefined);
      expect(none.status).toBe(400);
      expect(await none.json()).toMatchObject({ error: 'invalid_request' });
    });
  });

  it('answers 401 for user-info without a token and 400 for a malformed request', async () => {
    const none = await fetch(`${t.baseUrl}/oidc/userinfo`);
    expect(none.status).toBe(401);
    const both = await fetch(`${t.baseUrl}/oidc/userinfo?access_token=abc`, { headers: { authorization: 'Bearer abc' } });
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses a disabled merchant at the authorization and token endpoints, and accepts it again when enabled', async () => {
    const m = await admin.createMerchant({ name: 'Pausing', redirect_uris: [REDIRECT_URI] });
    const mConfig = await discover(issuer, m.client_id, m.client_secret);
    const req = await authorizationRequest(mConfig);
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    await admin.call('POST', `/admin/v1/merchants/${m.client_id}/disable`);
    const page = await firstResponse(t.baseUrl, (await authorizationRequest(mConfig)).url);
    expect(page.status).toBe(400);
    expect(page.html).toContain('invalid_client');
    const token = await exchange(callback.searchParams.get('code')!, req.verifier, m);
    expect(token.status).toBe(401);
    expect(await token.json()).toMatchObject({ error: 'invalid_client' });
    await admin.call('POST', `/admin/v1/merchants/${m.client_id}/enable`);
    expect((await firstResponse(t.baseUrl, (await authorizationRequest(mConfig)).url)).location).toMatch(/interaction/);
  });

  it('applies a redirect URI change made through the admin API on the next request', async () => {
    const m = await admin.createMerchant({ name: 'Mover', redirect_uris: [REDIRECT_URI] });
    const mConfig = await discover(issuer, m.client_id, m.client_secret);
    const moved = `${MERCHANT_ORIGIN}/new-callback`;
    expect((await firstResponse(t.baseUrl, (await authorizationRequest(mConfig, { redirect_uri: moved })).url)).status).toBe(400);
    await admin.call('PATCH', `/admin/v1/merchants/${m.client_id}`, { redirect_uris: [moved] });
    expect((await firstResponse(t.baseUrl, (await authorizationRequest(mConfig, { redirect_uri: moved })).url)).location).toMatch(/interaction/);
  });
});
