import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchRequestObject, MAX_REQUEST_OBJECT_BYTES, RequestUriError } from '../../src/oidc/provider/request-uri-fetcher.js';

describe('request_uri fetching', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/big') return res.end('a'.repeat(MAX_REQUEST_OBJECT_BYTES + 10));
      if (req.url === '/redirect') return res.writeHead(302, { location: '/signed' }).end();
      if (req.url === '/text') return res.end('hello');
      return res.end('eyJhbGciOiJSUzI1NiJ9.eyJhIjoxfQ.c2ln');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses loopback and private addresses in production (no server-side request forgery)', async () => {
    for (const url of [`${base}/signed`, 'http://10.1.2.3/x', 'http://192.168.0.1/x', 'http://[::1]/x', 'http://169.254.169.254/latest']) {
      await expect(fetchRequestObject(url, false)).rejects.toThrow('private address');
    }
  });

  it('fetches a signed object from an allowed address, and refuses oversized, redirected or non-JWT answers', async () => {
    expect(await fetchRequestObject(`${base}/signed`, true)).toBe('eyJhbGciOiJSUzI1NiJ9.eyJhIjoxfQ.c2ln');
    await expect(fetchRequestObject(`${base}/big`, true)).rejects.toThrow('too large');
    await expect(fetchRequestObject(`${base}/redirect`, true)).rejects.toThrow('could not be fetched');
    await expect(fetchRequestObject(`${base}/text`, true)).rejects.toThrow('did not return a JWT');
    await expect(fetchRequestObject('ftp://example.test/x', true)).rejects.toBeInstanceOf(RequestUriError);
    await expect(fetchRequestObject('not a url', true)).rejects.toThrow('not a URL');
  });
});
