import { connect, type Socket } from 'node:net';
import * as client from 'openid-client';
import { CibaAppClient } from '@identity-broker/verifier-sdk';
import { adminClient } from '../support/admin-client.js';
import { provisioning, provisioningCodeOf } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** What a raw connection receives until the server closes it (or `limitMs` passes), and when it closed. */
function untilClosed(socket: Socket, limitMs: number): Promise<{ closedAfterMs?: number; received: string }> {
  const started = Date.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ received });
    }, limitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ closedAfterMs: Date.now() - started, received });
    });
    socket.on('error', () => undefined);
  });
}

async function open(baseUrl: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

/**
 * A client may not hold a connection by sending slowly (HTTP_HEADERS_TIMEOUT_SECONDS, HTTP_REQUEST_TIMEOUT_SECONDS)
 * or by keeping it idle (HTTP_KEEP_ALIVE_TIMEOUT_SECONDS); before these were set, Node's defaults let an incomplete
 * body hold one for 300 s. Node checks the timeouts once a second here, so each bound is met within about a second.
 */
describe('slow clients', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { HTTP_HEADERS_TIMEOUT_SECONDS: '1', HTTP_REQUEST_TIMEOUT_SECONDS: '2', HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '1' } });
  }, 120_000);
  afterAll(() => t?.close());

  it('closes a connection whose headers never end, with 408', async () => {
    const socket = await open(t.baseUrl);
    socket.write('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const { closedAfterMs, received } = await untilClosed(socket, 8_000);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeLessThan(1_000 + 2_500);
  });

  it('closes a connection whose body never ends, with 408', async () => {
    const socket = await open(t.baseUrl);
    socket.write('POST /app/v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"qr_token"');
    const { closedAfterMs, received } = await untilClosed(socket, 10_000);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeLessThan(2_000 + 2_500);
  });

  it('closes an idle keep-alive connection', async () => {
    const socket = await open(t.baseUrl);
    socket.write('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const { closedAfterMs, received } = await untilClosed(socket, 8_000);
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(closedAfterMs).toBeLessThan(1_000 + 2_500);
  });

  it('still answers a request that arrived in time and takes longer than the request timeout to answer (a long poll)', async () => {
    // A long poll is held only for an app that proves itself: here with the code of its provisioning, after its cursor.
    const merchant = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Slow poll shop', redirect_uris: [REDIRECT_URI] });
    const config = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'slow-poll-app',
      binding_message: provisioning('slow-poll-app'),
    });
    const app = new CibaAppClient(`${t.baseUrl}/app/v1`, 'slow-poll-app').usingProvisioningCode(provisioningCodeOf(started));
    const { cursor } = await app.pending();
    const pollStarted = Date.now();
    const res = await fetch(`${t.baseUrl}/app/v1/ciba/requests/pending`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: 'slow-poll-app', provisioning_code: provisioningCodeOf(started), after: cursor, wait_seconds: 3 }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { requests: unknown[] }).requests).toEqual([]);
    expect(Date.now() - pollStarted).toBeGreaterThanOrEqual(2_500);
  });
});
