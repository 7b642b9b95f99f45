import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { upstreamFetch } from '../../src/schemes/upstream-oidc/upstream-fetch.js';
import { UpstreamOidcClient } from '../../src/schemes/upstream-oidc/upstream-oidc.client.js';

const PRODUCTION = { allowLoopback: false };
const CUSTOMER_TEST = { allowLoopback: true };
const get = (policy: { allowLoopback: boolean }, url: string, signal?: AbortSignal) =>
  upstreamFetch(policy)(url, { method: 'GET', headers: { accept: 'application/json' }, redirect: 'manual', body: undefined, signal });

/**
 * Every request openid-client makes to an upstream goes through the merchant-URL address rules: a
 * listener on 127.0.0.3 (not 127.0.0.1, so the whole of 127/8 is shown to be loopback) records each
 * connection, and under the production policy must see none.
 */
describe('upstream fetch (SSRF rules for upstream OpenID providers)', () => {
  let server: Server;
  let base = '';
  let connections = 0;
  let answer: (res: ServerResponse, path: string) => void;

  beforeAll(async () => {
    server = createServer((req, res) => answer(res, req.url ?? '/'));
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.3', resolve));
    base = `http://127.0.0.3:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    connections = 0;
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });

  it('refuses private, link-local (cloud metadata) and loopback addresses under the production policy, sending nothing', async () => {
    for (const url of [
      'http://10.0.0.1/.well-known/openid-configuration',
      'http://169.254.169.254/latest/meta-data',
      'http://192.168.1.10/jwks',
      'http://[::1]/token',
      'http://0.0.0.0/',
      `${base}/token`,
    ])
      await expect(get(PRODUCTION, url)).rejects.toThrow(/not allowed/);
    expect(connections).toBe(0);
  });

  it('reaches loopback (any 127/8 address) for a customer-test scheme, and still no other private range', async () => {
    const res = await get(CUSTOMER_TEST, `${base}/x`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ ok: true });
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/', 'http://192.168.1.10/'])
      await expect(get(CUSTOMER_TEST, url)).rejects.toThrow(/not allowed/);
    expect(connections).toBe(1);
  });

  it('does not follow a redirect (openid-client sees the 3xx and fails)', async () => {
    answer = (res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
    const res = await get(CUSTOMER_TEST, `${base}/.well-known/openid-configuration`);
    expect(res.status).toBe(302);
    expect(connections).toBe(1);
  });

  it('refuses an answer larger than the bound', async () => {
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.alloc(600 * 1024, 0x20));
    await expect(get(CUSTOMER_TEST, `${base}/jwks`)).rejects.toThrow(/too large/);
  });

  it("gives up when openid-client's time is over", async () => {
    answer = () => undefined;
    await expect(get(CUSTOMER_TEST, `${base}/slow`, AbortSignal.timeout(100))).rejects.toThrow();
  });

  it('is what the upstream client uses: a production scheme never discovers a loopback issuer', async () => {
    const client = new UpstreamOidcClient({
      issuer: base,
      clientId: 'broker',
      tokenEndpointAuthMethod: 'client_secret_basic',
      allowHttp: true,
      policy: PRODUCTION,
    });
    await expect(client.configuration()).rejects.toThrow();
    expect(connections).toBe(0);
  });

  it('and keeps it for the endpoints discovery names: a user-info endpoint at the metadata address is refused', async () => {
    answer = (res, path) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify(
          path === '/.well-known/openid-configuration'
            ? {
                issuer: base,
                authorization_endpoint: `${base}/auth`,
                token_endpoint: `${base}/token`,
                jwks_uri: `${base}/jwks`,
                userinfo_endpoint: 'http://169.254.169.254/userinfo',
              }
            : {},
        ),
      );
    const client = new UpstreamOidcClient({
      issuer: base,
      clientId: 'broker',
      tokenEndpointAuthMethod: 'client_secret_basic',
      allowHttp: true,
      policy: CUSTOMER_TEST,
    });
    const config = await client.configuration();
    const refused = await oidc.fetchUserInfo(config, 'an-access-token', 'someone').catch((err: Error) => err);
    expect(refused).toBeInstanceOf(Error);
    expect(String((refused as Error & { cause?: Error }).cause?.message ?? (refused as Error).message)).toMatch(/not allowed/);
  });
});
