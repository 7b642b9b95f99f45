import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { outboundGet } from '../../common/outbound/outbound-fetch.js';
import { fetchRequestObject, MAX_REQUEST_OBJECT_BYTES, RequestUriError } from './request-uri-fetcher.js';
import { isRegisteredRequestUri } from './request-uri-registration.js';

const detailOf = async (p: Promise<unknown>): Promise<string> => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(RequestUriError);
  expect((e as RequestUriError).description).toBe('the request_uri could not be used');
  return (e as RequestUriError).detail ?? '';
};

describe('request_uri fetching', () => {
  let server: Server;
  let port = 0;
  let base = '';
  const hits: string[] = [];
  const production = { allowLoopback: false };
  const customerTest = { allowLoopback: true };
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/big') return res.end('a'.repeat(MAX_REQUEST_OBJECT_BYTES + 10));
      if (req.url === '/redirect') return res.writeHead(302, { location: '/signed' }).end();
      if (req.url === '/text') return res.end('hello');
      return res.end('eyJhbGciOiJSUzI1NiJ9.eyJhIjoxfQ.c2ln');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses loopback and private addresses in production, checked at connect time (no request reaches them)', async () => {
    hits.length = 0;
    for (const url of [
      `${base}/signed`,
      'http://10.1.2.3/x',
      'http://192.168.0.1/x',
      'http://[::1]/x',
      'http://169.254.169.254/latest',
      'http://[::ffff:127.0.0.1]/x',
      'http://0.0.0.0/x',
    ]) {
      expect(await detailOf(fetchRequestObject(url, production))).toMatch(/could not be fetched.*not allowed/);
    }
    expect(hits).toEqual([]);
  });

  it('checks the address a host name resolves to when connecting: localhost (127.0.0.1) is refused without allowPrivate', async () => {
    hits.length = 0;
    await expect(outboundGet(new URL(`http://localhost:${port}/signed`), production, { maxBytes: 1000, timeoutMs: 2000, accept: '*/*' })).rejects.toThrow(
      /private IP address/,
    );
    expect(hits).toEqual([]);
    // The same request with loopback allowed (customer-test) reaches the server: the refusal above was the agent's.
    const ok = await outboundGet(new URL(`http://localhost:${port}/signed`), customerTest, { maxBytes: 1000, timeoutMs: 2000, accept: '*/*' });
    expect(ok.status).toBe(200);
  });

  it('keeps other private ranges refused in customer-test, where only loopback is reachable', async () => {
    expect(await detailOf(fetchRequestObject('http://169.254.169.254/latest', customerTest))).toMatch(/not allowed/);
  });

  it('fetches a signed object from an allowed address, and refuses oversized, redirected or non-JWT answers', async () => {
    expect(await fetchRequestObject(`${base}/signed`, customerTest)).toBe('eyJhbGciOiJSUzI1NiJ9.eyJhIjoxfQ.c2ln');
    expect(await detailOf(fetchRequestObject(`${base}/big`, customerTest))).toContain('too large');
    expect(await detailOf(fetchRequestObject(`${base}/redirect`, customerTest))).toContain('answered 302');
    expect(await detailOf(fetchRequestObject(`${base}/text`, customerTest))).toContain('did not return a JWT');
    expect(await detailOf(fetchRequestObject('ftp://example.test/x', customerTest))).toContain('scheme');
    expect(await detailOf(fetchRequestObject('not a url', customerTest))).toContain('not a URL');
  });

  it('matches registered request_uris exactly, or under a registered prefix ending in /', () => {
    const registered = ['https://rp.example/request.jwt', 'https://rp.example/objects/', 'https://other.example'];
    expect(isRegisteredRequestUri(registered, 'https://rp.example/request.jwt')).toBe(true);
    expect(isRegisteredRequestUri(registered, 'https://rp.example/request.jwt#hash-of-content')).toBe(true);
    expect(isRegisteredRequestUri(registered, 'https://rp.example/objects/42')).toBe(true);
    expect(isRegisteredRequestUri(registered, 'https://other.example/')).toBe(true);
    expect(isRegisteredRequestUri(registered, 'https://other.example/x')).toBe(false);
    expect(isRegisteredRequestUri(registered, 'https://rp.example/request.jwt2')).toBe(false);
    expect(isRegisteredRequestUri(registered, 'https://rp.example/objects/../admin')).toBe(false);
    expect(isRegisteredRequestUri(registered, 'https://rp.example/objects/%2e%2e/admin')).toBe(false);
    expect(isRegisteredRequestUri(registered, 'https://rp.example.evil.test/objects/1')).toBe(false);
    expect(isRegisteredRequestUri(registered, 'https://user@rp.example/objects/1')).toBe(false);
  });
});
