import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { outboundPost } from './outbound-fetch.js';

/** CIBA ping/push callbacks (the outbox) go through the request_uri address filter: nothing reaches a refused address. */
describe('merchant callback address filter', () => {
  let server: Server;
  let base = '';
  const hits: string[] = [];
  const post = (url: string, allowLoopback: boolean) =>
    outboundPost(
      new URL(url),
      { allowLoopback },
      { maxBytes: 1024, timeoutMs: 2000, headers: { 'content-type': 'application/json' }, body: '{"auth_req_id":"x"}' },
    );

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses loopback, private, link-local and metadata addresses in production: no callback is sent', async () => {
    hits.length = 0;
    for (const url of [`${base}/cb`, 'http://10.1.2.3/cb', 'http://192.168.0.1/cb', 'http://169.254.169.254/latest', 'http://[::1]/cb', 'http://0.0.0.0/cb'])
      await expect(post(url, false)).rejects.toThrow();
    expect(hits).toEqual([]);
  });

  it('reaches loopback in customer-test only, and never the other private ranges', async () => {
    hits.length = 0;
    expect((await post(`${base}/cb`, true)).status).toBe(204);
    await expect(post('http://10.1.2.3/cb', true)).rejects.toThrow();
    expect(hits).toEqual(['/cb']);
  });
});
