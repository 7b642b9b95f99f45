/**
 * Jest's globalSetup: the test merchants' own web server, on an ephemeral port of the loopback addresses, for the
 * whole run. Its origin (TEST_MERCHANT_ORIGIN, read by oidc-flow.ts and the SAML flows) is where every test merchant's
 * redirect URI, assertion consumer and logout page live, so a browser that follows a finished login lands here and
 * nowhere else: a developer's own server on a fixed port (8080, say) never sees the tests' codes, and never answers
 * them. It answers every request with a short page and keeps nothing.
 */
import { createServer } from 'node:http';

const answer = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end('the merchant');
};

const listen = (server, port, host) =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server.address().port));
  });

/** Both loopback addresses on one port: `localhost` is ::1 to Chromium and may be 127.0.0.1 to Node. */
async function listenOnLoopback() {
  for (let attempt = 0; attempt < 10; attempt++) {
    const v4 = createServer(answer);
    const port = await listen(v4, 0, '127.0.0.1');
    const v6 = createServer(answer);
    try {
      await listen(v6, port, '::1');
      return { origin: `http://localhost:${port}`, servers: [v4, v6] };
    } catch (e) {
      // No IPv6 loopback on this machine: IPv4 alone, named by its address.
      if (e.code === 'EADDRNOTAVAIL' || e.code === 'EAFNOSUPPORT') return { origin: `http://127.0.0.1:${port}`, servers: [v4] };
      v4.close();
      if (e.code !== 'EADDRINUSE') throw e;
    }
  }
  throw new Error('no port free on both loopback addresses');
}

export default async function startMerchantCallbackServer() {
  const { origin, servers } = await listenOnLoopback();
  for (const server of servers) server.unref();
  process.env.TEST_MERCHANT_ORIGIN = origin;
  globalThis.__merchantCallbackServers = servers;
}
