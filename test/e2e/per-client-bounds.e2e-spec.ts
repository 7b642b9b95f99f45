import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import * as client from 'openid-client';
import { CibaAppClient } from '@identity-broker/verifier-sdk';
import { AppBindingsService } from '../../src/ciba/bindings/app-bindings.service.js';
import { CibaRequestsService } from '../../src/ciba/requests/ciba-requests.service.js';
import { adminClient } from '../support/admin-client.js';
import { provisioning, provisioningCodeOf } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const BOUND = 50;
const CLIENTS = 300;
const REQUEST_TIMEOUT_SECONDS = 10;
/** Refusals come at once: well within the request timeout, and the long polls' 25 s (the machine may be busy). */
const AT_ONCE_MS = 8_000;

/** A request whose answer is awaited apart from sending it: its status once its head arrives, and a way to give up on it. */
interface Pending {
  status(): number | undefined;
  abort(): void;
}

/** Resolves once `condition` holds, or fails after `ms`. */
async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(20);
  }
}

const answered = <T extends Pending>(requests: T[]) => requests.filter((r) => r.status() !== undefined);
const unanswered = <T extends Pending>(requests: T[]) => requests.filter((r) => r.status() === undefined);

/**
 * One client address may hold only so much at once (HTTP_UNFINISHED_BODIES_PER_CLIENT, LONG_POLLS_PER_CLIENT, set to
 * 50 here): before, one address held a thousand connections with partial bodies for 61 s each, and a thousand
 * unauthenticated long polls for 25 s. What is over the bound is refused at once with 429, an unauthenticated long
 * poll with 401 before it is held, and every end of a request (its body finished, its client gone, its timeout, its
 * answer) gives its place back. TRUST_PROXY: the address is the one the proxy reports, as for the rate limits.
 */
describe('what one client address may hold', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        TRUST_PROXY: 'true',
        HTTP_UNFINISHED_BODIES_PER_CLIENT: String(BOUND),
        LONG_POLLS_PER_CLIENT: String(BOUND),
        HTTP_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_SECONDS),
      },
    });
  });
  afterAll(() => t?.close());

  describe('requests with unfinished bodies', () => {
    /** The body of a session start (a QR token no session has), 100 bytes of which the first 10 are sent; `finish()` sends the rest. */
    const body = Buffer.from(JSON.stringify({ qr_token: 'x'.repeat(43) }).padEnd(100, ' '));
    const sockets: Socket[] = [];
    afterAll(() => sockets.forEach((s) => s.destroy()));

    const partialBody = async (address: string): Promise<Pending & { finish(): void; received(): string }> => {
      const { hostname, port } = new URL(t.baseUrl);
      const socket = connect(Number(port), hostname);
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      const head = [
        'POST /app/v1/sessions HTTP/1.1',
        'Host: 127.0.0.1',
        `X-Forwarded-For: ${address}`,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
      ];
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      socket.write(body.subarray(0, 10));
      return {
        status: () => (/^HTTP\/1\.1 (\d{3})/.exec(received) ? Number(/^HTTP\/1\.1 (\d{3})/.exec(received)![1]) : undefined),
        abort: () => socket.destroy(),
        finish: () => socket.write(body.subarray(10)),
        received: () => received,
      };
    };
    const open = (address: string, n: number) => Promise.all(Array.from({ length: n }, () => partialBody(address)));

    it(`holds ${BOUND} of ${CLIENTS} from one address and refuses the rest at once; finished, abandoned and timed-out bodies give their places back`, async () => {
      const address = '203.0.113.50';
      const first = await open(address, CLIENTS);
      await until(() => answered(first).length >= CLIENTS - BOUND, AT_ONCE_MS, `${CLIENTS - BOUND} refusals`);
      await sleep(300);
      expect(answered(first).map((r) => r.status())).toEqual(Array(CLIENTS - BOUND).fill(429));
      // In the error object, and the connection closed rather than the body waited for.
      const refusal = answered(first)[0].received();
      expect(refusal).toMatch(/^Connection: close$/im);
      expect(refusal).toMatch(/^Retry-After: 5$/im);
      expect(refusal).toContain('{"error":"temporarily_unavailable","error_description":"too many requests with unfinished bodies from this address');
      const held = unanswered(first);
      expect(held).toHaveLength(BOUND);

      // Another address has places of its own.
      const other = await open('203.0.113.51', 1);
      await sleep(300);
      expect(other[0].status()).toBeUndefined();

      // Finished: 10 bodies completed are answered (no such QR token), and 10 places are free again.
      const finished = held.slice(0, 10);
      finished.forEach((r) => r.finish());
      await until(() => answered(finished).length === 10, 5_000, 'the finished bodies answered');
      expect(finished.map((r) => r.status())).toEqual(Array(10).fill(404));
      const afterFinish = await open(address, 11);
      await until(() => answered(afterFinish).length >= 1, 5_000, 'the 11th refused');
      await sleep(300);
      expect(afterFinish.map((r) => r.status()).sort()).toEqual([429, ...Array(10).fill(undefined)]);

      // Abandoned: 20 clients going away free 20 places.
      held.slice(10, 30).forEach((r) => r.abort());
      await sleep(300);
      const afterAbort = await open(address, 21);
      await until(() => answered(afterAbort).length >= 1, 5_000, 'the 21st refused');
      await sleep(300);
      expect(afterAbort.map((r) => r.status()).sort()).toEqual([429, ...Array(20).fill(undefined)]);

      // Timed out: every body still unfinished is answered 408 after the request timeout, and the address starts afresh.
      const stillHeld = [...held.slice(30), ...unanswered(afterFinish), ...unanswered(afterAbort)];
      expect(stillHeld).toHaveLength(BOUND);
      await until(() => answered(stillHeld).length === BOUND, (REQUEST_TIMEOUT_SECONDS + 4) * 1000, 'the request timeouts');
      expect(new Set(stillHeld.map((r) => r.status()))).toEqual(new Set([408]));
      const afterTimeout = await open(address, BOUND);
      await sleep(500);
      expect(answered(afterTimeout)).toHaveLength(0);
      afterTimeout.forEach((r) => r.abort());
    }, 60_000);
  });

  describe('long polls', () => {
    const pendingPolls: Pending[] = [];
    afterAll(() => pendingPolls.forEach((p) => p.abort()));

    /** POSTs a poll from `address` on a connection of its own. */
    const poll = (address: string, body: Record<string, unknown>): Pending => {
      let status: number | undefined;
      const req = request(
        `${t.baseUrl}/app/v1/ciba/requests/pending`,
        { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'x-forwarded-for': address } },
        (res) => {
          status = res.statusCode;
          res.resume();
        },
      );
      req.on('error', () => undefined);
      req.end(JSON.stringify(body));
      const pending = { status: () => status, abort: () => req.destroy() };
      pendingPolls.push(pending);
      return pending;
    };
    const polls = (address: string, n: number, body: Record<string, unknown>) => Array.from({ length: n }, () => poll(address, body));

    let app: Record<string, unknown>;
    beforeAll(async () => {
      // An app that proves itself with its provisioning's code; after that request's cursor its polls wait.
      const merchant = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Polled shop', redirect_uris: [REDIRECT_URI] });
      const config = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
      const started = await client.initiateBackchannelAuthentication(config, {
        scope: 'openid',
        login_hint: 'polling-app',
        binding_message: provisioning('polling-app'),
      });
      const code = provisioningCodeOf(started);
      const { cursor } = await new CibaAppClient(`${t.baseUrl}/app/v1`, 'polling-app').usingProvisioningCode(code).pending();
      app = { app_id: 'polling-app', provisioning_code: code, after: cursor };
    });

    it(`refuses ${CLIENTS} unauthenticated long polls at once with 401, none held`, async () => {
      const strangers = polls('203.0.113.60', CLIENTS, { app_id: 'polling-app', wait_seconds: 25 });
      await until(() => answered(strangers).length === CLIENTS, AT_ONCE_MS, 'every unauthenticated poll answered');
      expect(new Set(strangers.map((r) => r.status()))).toEqual(new Set([401]));
      const response = await fetch(`${t.baseUrl}/app/v1/ciba/requests/pending`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ app_id: 'polling-app', provisioning_code: 'ZZZZZ-ZZZZZ', wait_seconds: 25 }),
      });
      expect([response.status, await response.json()]).toEqual([
        401,
        { error: 'unauthorized', error_description: expect.stringMatching(/long poll/), request_id: expect.any(String) },
      ]);
    });

    it(`holds ${BOUND} of ${CLIENTS} authenticated long polls from one address and refuses the rest at once; ended polls give their places back`, async () => {
      const address = '203.0.113.61';
      const first = polls(address, CLIENTS, { ...app, wait_seconds: 25 });
      await until(() => answered(first).length >= CLIENTS - BOUND, AT_ONCE_MS, `${CLIENTS - BOUND} refusals`);
      await sleep(300);
      expect(answered(first).map((r) => r.status())).toEqual(Array(CLIENTS - BOUND).fill(429));
      expect(unanswered(first)).toHaveLength(BOUND);
      const over = await fetch(`${t.baseUrl}/app/v1/ciba/requests/pending`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ ...app, wait_seconds: 25 }),
      });
      expect([over.status, over.headers.get('retry-after'), await over.json()]).toEqual([
        429,
        '5',
        { error: 'temporarily_unavailable', error_description: 'too many long polls from this address; retry after 5 seconds', request_id: expect.any(String) },
      ]);

      // Another address has places of its own.
      const other = poll('203.0.113.62', { ...app, wait_seconds: 25 });
      await sleep(500);
      expect(other.status()).toBeUndefined();
      other.abort();

      // Abandoned: the clients going away free every place; polls that end with their wait free theirs again.
      unanswered(first).forEach((r) => r.abort());
      await sleep(300);
      for (let round = 0; round < 2; round++) {
        const short = polls(address, BOUND, { ...app, wait_seconds: 1 });
        await sleep(300);
        expect(answered(short)).toHaveLength(0);
        await until(() => answered(short).length === BOUND, 8_000, 'the short polls answered');
        expect(new Set(short.map((r) => r.status()))).toEqual(new Set([200]));
      }
    }, 60_000);

    it('gives the polls of one app in flight at the same moment one read of its open requests, and a later poll a new one', async () => {
      const requests = t.app.get(CibaRequestsService);
      const appKey = t.app.get(AppBindingsService).appKey('polling-app');
      const [a, b, otherCursor] = await Promise.all([requests.openForApp(appKey, '0'), requests.openForApp(appKey, '0'), requests.openForApp(appKey, '1')]);
      expect(a).toBe(b);
      expect(a.map((r) => r.details.appId)).toEqual(['polling-app']);
      expect(otherCursor).not.toBe(a);
      const later = await requests.openForApp(appKey, '0');
      expect(later).not.toBe(a);
      expect(later.map((r) => r.row.id)).toEqual(a.map((r) => r.row.id));
    });
  });
});
