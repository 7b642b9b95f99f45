import * as client from 'openid-client';
import { OidcProviderService } from '../../src/oidc/provider/oidc-provider.service.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const DISCOVERY = '/oidc/.well-known/openid-configuration';

/** Counts the requests the engine itself answers (its Koa handler, a private field of the service), and their paths. */
function countEngineRequests(t: TestApp): { count: () => number; paths: string[] } {
  const service = t.app.get(OidcProviderService) as unknown as { handler: (...args: unknown[]) => unknown };
  const handler = service.handler;
  const paths: string[] = [];
  service.handler = (...args: unknown[]) => {
    paths.push(String((args[0] as { url?: string }).url).split('?')[0]);
    return handler(...args);
  };
  return { count: () => paths.length, paths };
}

async function get(t: TestApp, headers: Record<string, string> = {}, path = DISCOVERY) {
  const res = await fetch(`${t.baseUrl}${path}`, { headers });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

describe('the discovery document and the JWKS, replayed from memory', () => {
  let t: TestApp;
  let engine: { count: () => number };

  beforeAll(async () => {
    t = await startTestApp();
    engine = countEngineRequests(t);
  });
  afterAll(() => t?.close());

  it('asks the engine once, then answers the same bytes and headers without it; the request id stays per request', async () => {
    const first = await get(t, { 'x-request-id': 'discovery-first-1' });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toMatchObject({ issuer: `${t.baseUrl}/oidc`, request_uri_parameter_supported: true });
    const before = engine.count();
    const again = await get(t, { 'x-request-id': 'discovery-again-2' });
    expect(engine.count()).toBe(before);
    expect(again.body).toBe(first.body);
    for (const name of ['content-type', 'access-control-allow-origin', 'vary', 'content-security-policy', 'x-content-type-options'])
      expect([name, again.headers.get(name)]).toEqual([name, first.headers.get(name)]);
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
    expect(again.headers.get('x-request-id')).toBe('discovery-again-2');
  });

  it("replays the JWKS until the keys change, then the new engine's", async () => {
    const first = await get(t, {}, '/oidc/jwks');
    const before = engine.count();
    expect((await get(t, {}, '/oidc/jwks')).body).toBe(first.body);
    expect(engine.count()).toBe(before);
    const rotated = await adminClient(t.baseUrl, t.adminToken).call('POST', '/admin/v1/signing-keys/rotate');
    expect(rotated.status).toBe(200);
    const kids = (rotated.body as { kid: string }[]).map((k) => k.kid);
    // The rotation made a new engine: its JWKS publishes the new keys at once (publish before sign).
    const after = countEngineRequests(t);
    const published = JSON.parse((await get(t, {}, '/oidc/jwks')).body) as { keys: { kid: string }[] };
    expect(published.keys.map((k) => k.kid)).toEqual(expect.arrayContaining(kids));
    expect(after.count()).toBe(1);
    expect(JSON.parse((await get(t, {}, '/oidc/jwks')).body)).toEqual(published);
    expect(after.count()).toBe(1);
    engine = after;
  });

  it('leaves a request with an Origin to the engine, whose CORS answer names that origin', async () => {
    await get(t);
    const before = engine.count();
    const res = await get(t, { origin: 'https://rp.example' });
    expect(engine.count()).toBe(before + 1);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://rp.example');
    expect((await get(t)).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('serves a relying party library (openid-client) from memory: the discovery it reads, the JWKS it checks an ID token with', async () => {
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Kept answers RP', redirect_uris: [REDIRECT_URI] });
    // Both kept by this engine first, as any earlier relying party would have them.
    await get(t);
    await get(t, {}, '/oidc/jwks');
    const engineNow = countEngineRequests(t);
    const config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    // openid-client then verifies the ID token's signature with the keys it fetches from jwks_uri.
    client.enableNonRepudiationChecks(config);
    const request = await authorizationRequest(config);
    const { callback } = await loginWithTestEid(t.baseUrl, request.url);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    expect(tokens.claims()?.aud).toBe(m.client_id);
    // The engine answered the login and the exchange; the discovery document and the JWKS came from memory.
    expect(engineNow.paths).toContain('/oidc/token');
    expect(engineNow.paths.filter((path) => /well-known|jwks/.test(path))).toEqual([]);
    engine = engineNow;
  });

  it("never keeps a Host the service does not believe (without TRUST_PROXY the URLs are BASE_URL's)", async () => {
    const res = await get(t, { 'x-forwarded-host': 'attacker.example' });
    expect(res.body).not.toContain('attacker.example');
    expect((await get(t)).body).not.toContain('attacker.example');
  });
});

describe('the discovery document behind a trusted proxy', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t?.close());

  it('keeps one answer per forwarded origin, each with its own URLs', async () => {
    const a = { 'x-forwarded-host': 'a.broker.example', 'x-forwarded-proto': 'https' };
    const b = { 'x-forwarded-host': 'b.broker.example', 'x-forwarded-proto': 'https' };
    for (let round = 0; round < 2; round++) {
      const fromA = JSON.parse((await get(t, a)).body) as { token_endpoint: string };
      const fromB = JSON.parse((await get(t, b)).body) as { token_endpoint: string };
      expect(fromA.token_endpoint).toBe('https://a.broker.example/oidc/token');
      expect(fromB.token_endpoint).toBe('https://b.broker.example/oidc/token');
    }
  });
});
