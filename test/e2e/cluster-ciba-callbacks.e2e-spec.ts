import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import { CibaAppClient } from '@identity-broker/verifier-sdk';
import { CibaOutboxService } from '../../src/ciba/outbox/ciba-outbox.service.js';
import { adminClient } from '../support/admin-client.js';
import { provisioning, provisioningCodeOf } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { describeWithPostgres } from '../support/describe-with-postgres.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A merchant's callback endpoint that takes its time (so deliveries overlap) and counts what it gets, by id. */
async function countingReceiver(delayMs: number, firstAnswers: number[] = []) {
  const counts = new Map<string, number>();
  const statuses: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { auth_req_id?: unknown }).auth_req_id);
      counts.set(id, (counts.get(id) ?? 0) + 1);
      const status = firstAnswers.shift() ?? 204;
      statuses.push(status);
      setTimeout(() => res.writeHead(status).end(), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ciba-callback`,
    counts,
    statuses,
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(what: string, test: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describeWithPostgres('CIBA callbacks with two instances on one database: each delivered once', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    // A sweep that never falls into a test: every delivery here is woken by a NOTIFY or by its row's due time.
    a = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '1', CIBA_OUTBOX_SWEEP_SECONDS: '600' } });
    b = await startTestApp({ sameDatabaseAs: a });
  });
  afterAll(async () => {
    await b?.app.close();
    await a?.close();
  });

  it('forty callbacks queued at once, both instances delivering (their timers and extra rounds): every one arrives exactly once', async () => {
    const receiver = await countingReceiver(150);
    try {
      const outbox = a.app.get(CibaOutboxService);
      const ids = Array.from({ length: 40 }, (_, i) => `req-${i}`);
      await Promise.all(ids.map((id) => outbox.enqueue('cluster-shop', 'ping', { url: receiver.url, bearer: 'nt', body: { auth_req_id: id } })));
      // Rounds started together on both instances, besides the ones their notifications start.
      for (let i = 0; i < 10; i++) {
        a.app.get(CibaOutboxService).kick();
        b.app.get(CibaOutboxService).kick();
        await sleep(30);
      }
      await until('forty deliveries', () => receiver.total() >= ids.length);
      await sleep(1500); // room for a duplicate to show up
      expect(receiver.total()).toBe(ids.length);
      expect([...receiver.counts.keys()].sort()).toEqual([...ids].sort());
      const states = await a.dataSource.query(
        `SELECT state, attempts, count(*)::int AS n FROM ciba_outbox WHERE client_id = 'cluster-shop' GROUP BY state, attempts`,
      );
      expect(states).toEqual([{ state: 'delivered', attempts: 1, n: 40 }]);
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('a real CIBA ping answered on alternating instances, the first try failing with 503: one retry, then delivered once', async () => {
    const receiver = await countingReceiver(0, [503]);
    try {
      const m = await adminClient(a.baseUrl, a.adminToken).createMerchant({
        name: 'Cluster ping shop',
        redirect_uris: [REDIRECT_URI],
        backchannel_token_delivery_mode: 'ping',
        backchannel_client_notification_endpoint: receiver.url,
      });
      const config = await discover(`${a.baseUrl}/oidc`, m.client_id, m.client_secret);
      const started = await client.initiateBackchannelAuthentication(config, {
        scope: 'openid',
        login_hint: 'cluster-1',
        binding_message: provisioning('cluster-1'),
        client_notification_token: 'nt-1',
      });
      const app = new CibaAppClient(`${b.baseUrl}/app/v1`, 'cluster-1', 'test-install-secret-0123456789abcdef0123').usingProvisioningCode(
        provisioningCodeOf(started),
      );
      await app.decline((await app.pending(undefined, 5)).requests[0].id);
      await until('the retry', () => receiver.total() >= 2);
      await sleep(2500);
      expect(receiver.counts.get(started.auth_req_id)).toBe(2);
      expect(receiver.statuses).toEqual([503, 204]);
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('wakes on the NOTIFY of the committing transaction, on another instance too, with no sweep due for ten minutes', async () => {
    const receiver = await countingReceiver(0);
    const [outboxA, outboxB] = [a.app.get(CibaOutboxService), b.app.get(CibaOutboxService)];
    const queueOnA = (id: string, held: () => Promise<void>) =>
      a.dataSource.transaction(async (manager) => {
        await outboxA.enqueue('cluster-shop', 'ping', { url: receiver.url, bearer: 'nt', body: { auth_req_id: id } }, manager);
        await held();
      });
    try {
      // B stopped: A hears its own notification, and only once the row is committed.
      await outboxB.onApplicationShutdown();
      await queueOnA('notified-1', async () => {
        await sleep(700);
        expect(receiver.total()).toBe(0);
      });
      const committed = Date.now();
      await until('the ping queued on A', () => receiver.total() === 1, 3_000);
      expect(Date.now() - committed).toBeLessThan(2_000);

      // A stopped, B listening: B hears what A committed.
      await outboxA.onApplicationShutdown();
      await outboxB.onApplicationBootstrap();
      await queueOnA('notified-2', async () => undefined);
      await until('the ping queued on A, sent by B', () => receiver.counts.get('notified-2') === 1, 3_000);
      expect(receiver.statuses).toEqual([204, 204]);
    } finally {
      await outboxA.onApplicationBootstrap();
      await outboxB.onApplicationBootstrap();
      await receiver.close();
    }
  }, 30_000);
});
