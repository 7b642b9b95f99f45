import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { adminClient } from '../support/admin-client.js';
import { firstResponse, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const GENERIC = 'the request_uri could not be used';

/**
 * request_uri by reference (spec 4.2) without server-side request forgery: the client and its registered
 * request_uris are checked before anything is fetched, and every failure answers the same description.
 */
describe('request_uri (SSRF hardening)', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminClient>;
  let server: Server;
  let origin = '';
  let refused = '';
  const hits: string[] = [];
  let served = '';
  let jar: { client_id: string };
  let signing: Awaited<ReturnType<typeof generateKeyPair>>;

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/404') return res.writeHead(404).end('not here');
      if (req.url === '/500') return res.writeHead(500).end('boom');
      return res.writeHead(200, { 'content-type': 'application/oauth-authz-req+jwt' }).end(served);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A port nobody listens on: connection refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    refused = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/gone`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    t = await startTestApp();
    admin = adminClient(t.baseUrl, t.adminToken);
    signing = await generateKeyPair('RS256', { extractable: true });
    jar = await admin.createMerchant({
      name: 'JAR shop',
      redirect_uris: [REDIRECT_URI],
      request_object_signing_alg: 'RS256',
      jwks: { keys: [{ ...(await exportJWK(signing.publicKey)), kid: 'ro-1' }] },
      request_uris: [`${origin}/ok`, `${origin}/404`, `${origin}/500`, refused, `${origin}/objects/`],
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  const requestObject = () =>
    new SignJWT({ response_type: 'code', client_id: jar.client_id, redirect_uri: REDIRECT_URI, scope: 'openid', state: 'from-object', nonce: 'n' })
      .setProtectedHeader({ alg: 'RS256', kid: 'ro-1' })
      .setIssuer(jar.client_id)
      .setAudience(`${t.baseUrl}/oidc`)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(signing.privateKey);

  const authorize = (params: Record<string, string>) =>
    firstResponse(
      t.baseUrl,
      `${t.baseUrl}/its/index.html?${new URLSearchParams({ response_type: 'code', scope: 'openid', redirect_uri: REDIRECT_URI, state: 'outer', ...params })}`,
    );

  const errorOf = async (params: Record<string, string>) => {
    const page = await authorize(params);
    expect(page.status).toBe(303);
    const location = new URL(page.location!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    return {
      error: location.searchParams.get('error'),
      description: location.searchParams.get('error_description'),
      state: location.searchParams.get('state'),
    };
  };

  it('discovery says request_uris must be registered', async () => {
    const metadata = (await (await fetch(`${t.baseUrl}/oidc/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(metadata.require_request_uri_registration).toBe(true);
    expect(metadata.request_uri_parameter_supported).toBe(true);
  });

  it('fetches nothing for an unknown client or without client_id', async () => {
    hits.length = 0;
    served = await requestObject();
    const unknown = await authorize({ client_id: 'm_unknown', request_uri: `${origin}/ok` });
    expect(unknown.status).toBe(400);
    expect(unknown.location).toBeUndefined();
    expect(unknown.html).toContain('invalid_request_uri');
    const anonymous = await authorize({ request_uri: `${origin}/ok` });
    expect(anonymous.status).toBe(400);
    expect(hits).toEqual([]);
  });

  it('fetches nothing for a request_uri the merchant did not register', async () => {
    hits.length = 0;
    const out = await errorOf({ client_id: jar.client_id, request_uri: `${origin}/elsewhere` });
    expect(out).toEqual({ error: 'invalid_request_uri', description: GENERIC, state: 'outer' });
    // A registered value is a prefix only when it ends with '/', and dot segments cannot climb out of it.
    expect((await errorOf({ client_id: jar.client_id, request_uri: `${origin}/okay` })).error).toBe('invalid_request_uri');
    expect((await errorOf({ client_id: jar.client_id, request_uri: `${origin}/objects/../ok2` })).error).toBe('invalid_request_uri');
    expect(hits).toEqual([]);
  });

  it('answers one generic error for upstream 404, 500 and a refused connection (no status oracle)', async () => {
    const answers = [
      await errorOf({ client_id: jar.client_id, request_uri: `${origin}/404` }),
      await errorOf({ client_id: jar.client_id, request_uri: `${origin}/500` }),
      await errorOf({ client_id: jar.client_id, request_uri: refused }),
    ];
    for (const a of answers) expect(a).toEqual({ error: 'invalid_request_uri', description: GENERIC, state: 'outer' });
  });

  it('uses a registered request_uri (exact, or under a registered prefix ending in /)', async () => {
    served = await requestObject();
    hits.length = 0;
    expect((await authorize({ client_id: jar.client_id, request_uri: `${origin}/ok` })).location).toMatch(/\/its\/interaction\//);
    expect((await authorize({ client_id: jar.client_id, request_uri: `${origin}/objects/abc123` })).location).toMatch(/\/its\/interaction\//);
    expect(hits).toEqual(['/ok', '/objects/abc123']);
  });

  it('validates request_uris at registration (https, plus http://localhost in customer-test)', async () => {
    const bad = await admin.call('POST', '/admin/v1/merchants', {
      name: 'x',
      redirect_uris: [REDIRECT_URI],
      request_uris: ['http://shop.example/request.jwt'],
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['request_uris']);
    const ok = await admin.call('POST', '/admin/v1/merchants', {
      name: 'x',
      redirect_uris: [REDIRECT_URI],
      request_uris: ['https://shop.example/request.jwt'],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.request_uris).toEqual(['https://shop.example/request.jwt']);
    expect((await admin.call('PATCH', `/admin/v1/merchants/${ok.body.client_id}`, { request_uris: null })).status).toBe(400);
    const cleared = await admin.call('PATCH', `/admin/v1/merchants/${ok.body.client_id}`, { request_uris: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body.request_uris).toEqual([]);
  });
});
