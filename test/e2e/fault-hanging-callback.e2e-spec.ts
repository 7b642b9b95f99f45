import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import { CibaAppClient } from '@identity-broker/verifier-sdk';
import { adminClient } from '../support/admin-client.js';
import { type CallbackListener, provisioning, provisioningCodeOf, startCallbackListener } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A callback endpoint that accepts connections and never answers; counts how many are open at once. */
async function startHangingEndpoint() {
  const open = new Set<Socket>();
  const seen = { connections: 0, mostAtOnce: 0 };
  const server: Server = createServer((socket) => {
    seen.connections++;
    open.add(socket);
    seen.mostAtOnce = Math.max(seen.mostAtOnce, open.size);
    socket.on('data', () => undefined);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hang`,
    seen,
    open,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Issue 15, point 6: a merchant whose callback endpoint hangs costs one bounded connection per callback,
 * cut at the delivery timeout and retried with backoff; it does not pile up connections and does not hold
 * back another merchant's callbacks.
 */
describe('a merchant callback endpoint that hangs', () => {
  let t: TestApp;
  let healthy: CallbackListener;
  let hanging: Awaited<ReturnType<typeof startHangingEndpoint>>;
  let hangingShop: client.Configuration;
  let healthyShop: client.Configuration;

  const declinedPing = async (cfg: client.Configuration, appId: string) => {
    const started = await client.initiateBackchannelAuthentication(cfg, {
      scope: 'openid',
      login_hint: appId,
      binding_message: provisioning(appId),
      client_notification_token: `notify-${appId}`,
    });
    const app = new CibaAppClient(`${t.baseUrl}/app/v1`, appId, 'test-install-secret-0123456789abcdef0123').usingProvisioningCode(provisioningCodeOf(started));
    const { requests } = await app.pending(undefined, 5);
    await app.decline(requests[0].id);
    return started;
  };

  beforeAll(async () => {
    t = await startTestApp();
    healthy = await startCallbackListener();
    hanging = await startHangingEndpoint();
    const admin = adminClient(t.baseUrl, t.adminToken);
    const ping = (name: string, endpoint: string) =>
      admin.createMerchant({
        name,
        redirect_uris: [REDIRECT_URI],
        backchannel_token_delivery_mode: 'ping',
        backchannel_client_notification_endpoint: endpoint,
      });
    const h = await ping('Hanging shop', hanging.url);
    const ok = await ping('Healthy shop', healthy.url);
    hangingShop = await discover(`${t.baseUrl}/oidc`, h.client_id, h.client_secret);
    healthyShop = await discover(`${t.baseUrl}/oidc`, ok.client_id, ok.client_secret);
  });
  afterAll(async () => {
    await hanging?.close();
    await healthy?.close();
    await t?.close();
  });

  it('bounds each delivery by its timeout, opens one connection per callback at a time, and still delivers to others', async () => {
    for (const appId of ['hang-1', 'hang-2', 'hang-3']) await declinedPing(hangingShop, appId);
    while (hanging.open.size < 3) await sleep(50);
    const started = await declinedPing(healthyShop, 'fine-1');
    // Delivered while the hanging merchant's three connections are still open (they last the 5 s timeout).
    await healthy.waitFor(1, 4_000);
    expect(hanging.open.size).toBe(3);
    expect(healthy.received[0].body).toEqual({ auth_req_id: started.auth_req_id });

    await sleep(8_000);
    // Three callbacks, each cut at the timeout and tried again: never more than three connections at once.
    expect(hanging.seen.mostAtOnce).toBeLessThanOrEqual(3);
    expect(hanging.seen.connections).toBeGreaterThanOrEqual(3);
    const rows: { state: string; attempts: number; last_error: string | null }[] = await t.dataSource.query(
      `SELECT o.state, o.attempts, o.last_error FROM ciba_outbox o WHERE o.state <> 'delivered'`,
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.state).toBe('pending');
      expect(row.attempts).toBeGreaterThanOrEqual(1);
      expect(row.last_error).toMatch(/abort|timeout|timed out/i);
    }
  }, 40_000);
});
