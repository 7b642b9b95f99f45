import * as client from 'openid-client';
import { CibaAppClient } from '@identity-broker/verifier-sdk';
import { CibaOutboxService } from '../../src/ciba/outbox/ciba-outbox.service.js';
import { adminClient } from '../support/admin-client.js';
import { type CallbackListener, cibaError, pollOnce, provisioning, provisioningCodeOf, startCallbackListener } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { itWhen, POSTGRES } from '../support/when-available.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Ping delivery (CIBA Core 10.2) to a real HTTP listener, through the outbox: retried on 5xx, not on 4xx,
 * delivered by another instance after a restart. A declined request completes at once, so no phone is needed.
 */
describe('CIBA ping delivery through the outbox', () => {
  let t: TestApp;
  let listener: CallbackListener;
  let config: client.Configuration;

  /** A provisioning request the app declines at once; answers what the merchant initiated. */
  const declined = async (base: string, cfg: client.Configuration, appId: string, token: string) => {
    const started = await client.initiateBackchannelAuthentication(cfg, {
      scope: 'openid',
      login_hint: appId,
      binding_message: provisioning(appId),
      client_notification_token: token,
    });
    const app = new CibaAppClient(`${base}/app/v1`, appId, 'test-install-secret-0123456789abcdef0123').usingProvisioningCode(provisioningCodeOf(started));
    const { requests } = await app.pending(undefined, 5);
    await app.decline(requests[0].id);
    return started;
  };

  beforeAll(async () => {
    // No sweep within a test: retries come at their due time, new rows on their notification (on either database).
    t = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '1', CIBA_OUTBOX_SWEEP_SECONDS: '600' } });
    listener = await startCallbackListener();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({
      name: 'Ping shop',
      redirect_uris: [REDIRECT_URI],
      backchannel_token_delivery_mode: 'ping',
      backchannel_client_notification_endpoint: listener.url,
    });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  });
  afterAll(async () => {
    await listener?.close();
    await t?.close();
  });
  beforeEach(() => {
    listener.received.length = 0;
    listener.answers.length = 0;
  });

  it('requires client_notification_token of a ping merchant (invalid_request)', async () => {
    expect(
      await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'x', binding_message: provisioning('x') })),
    ).toMatchObject({ error: 'invalid_request' });
  });

  it('pings {auth_req_id} with the bearer client_notification_token; the token endpoint then answers the result', async () => {
    const started = await declined(t.baseUrl, config, 'ping-1', 'notify-token-1');
    await listener.waitFor(1);
    expect(listener.received[0]).toMatchObject({ authorization: 'Bearer notify-token-1', body: { auth_req_id: started.auth_req_id } });
    expect(await cibaError(client.pollBackchannelAuthenticationGrant(config, started))).toMatchObject({ error: 'access_denied' });
  });

  it('pings when the merchant cancels a request; the poll then answers access_denied', async () => {
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'ping-c',
      binding_message: provisioning('ping-c'),
      client_notification_token: 'notify-token-c',
    });
    await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      client_notification_token: 'notify-token-c',
      binding_message: JSON.stringify({ operation: 'cancel', auth_req_id: started.auth_req_id }),
    });
    await listener.waitFor(1);
    expect(listener.received[0]).toMatchObject({ authorization: 'Bearer notify-token-c', body: { auth_req_id: started.auth_req_id } });
    expect(await cibaError(client.pollBackchannelAuthenticationGrant(config, started))).toMatchObject({ error: 'access_denied' });
  });

  it('retries after 5xx: a listener that answers 500 twice gets the third try', async () => {
    listener.answers.push(500, 500);
    await declined(t.baseUrl, config, 'ping-2', 'notify-token-2');
    await listener.waitFor(3, 15_000);
    expect(listener.received.map((r) => r.status)).toEqual([500, 500, 204]);
  }, 30_000);

  it('does not retry after 4xx', async () => {
    listener.answers.push(400);
    await declined(t.baseUrl, config, 'ping-3', 'notify-token-3');
    await listener.waitFor(1);
    await sleep(4000);
    expect(listener.received.map((r) => r.status)).toEqual([400]);
  }, 30_000);

  it('sends a callback queued in a transaction once it commits, woken by its NOTIFY (nothing else kicks the outbox)', async () => {
    const outbox = t.app.get(CibaOutboxService);
    await t.dataSource.transaction(async (manager) => {
      await outbox.enqueue('notified-shop', 'ping', { url: listener.url, bearer: 'notified-token', body: { auth_req_id: 'notified' } }, manager);
      await sleep(500);
      expect(listener.received).toHaveLength(0);
    });
    await listener.waitFor(1, 2_000);
    expect(listener.received[0]).toMatchObject({ authorization: 'Bearer notified-token', body: { auth_req_id: 'notified' }, status: 204 });
  });

  it('purges requests an hour past expiry and finished callbacks (delivered after an hour, given up after a week), nothing open', async () => {
    const ds = t.dataSource;
    await ds.query(`INSERT INTO ciba_requests (client_id, app_key, kind, state, auth_req_id_hash, sealed, interval_seconds, expires_at)
      VALUES ('c', 'k', 'provisioning', 'pending', 'old', 'x', 5, now() - interval '2 hours'), ('c', 'k', 'provisioning', 'pending', 'recent', 'x', 5, now() - interval '10 minutes')`);
    await ds.query(`INSERT INTO ciba_outbox (client_id, kind, state, sealed, next_attempt_at, created_at, delivered_at) VALUES
      ('c', 'ping', 'delivered', 'x', now(), now() - interval '3 hours', now() - interval '2 hours'),
      ('c', 'ping', 'delivered', 'x', now(), now() - interval '3 hours', now() - interval '10 minutes'),
      ('c', 'push', 'failed', 'x', now(), now() - interval '8 days', null),
      ('c', 'push', 'failed', 'x', now(), now() - interval '1 day', null),
      ('c', 'push', 'pending', 'x', now() + interval '1 day', now() - interval '30 days', null)`);
    const { CibaPurgeService } = await import('../../src/ciba/ciba-purge.service.js');
    expect(await t.app.get(CibaPurgeService).purge()).toEqual({ requests: 1, callbacks: 2 });
    expect(await ds.query(`SELECT auth_req_id_hash FROM ciba_requests WHERE client_id = 'c'`)).toEqual([{ auth_req_id_hash: 'recent' }]);
    expect(await ds.query(`SELECT state FROM ciba_outbox WHERE client_id = 'c' ORDER BY state`)).toEqual([
      { state: 'delivered' },
      { state: 'failed' },
      { state: 'pending' },
    ]);
  });

  itWhen(POSTGRES)(
    'delivers after a restart: a callback that failed before the service stopped is sent by the next instance',
    async () => {
      listener.answers.push(503);
      await declined(t.baseUrl, config, 'ping-4', 'notify-token-4');
      await listener.waitFor(1);
      await t.app.close(); // the service stops before its retry is due
      const second = await startTestApp({ sameDatabaseAs: t });
      try {
        await listener.waitFor(2, 15_000);
        expect(listener.received.map((r) => r.status)).toEqual([503, 204]);
        expect(listener.received[1].authorization).toBe('Bearer notify-token-4');
      } finally {
        await second.close();
      }
    },
    60_000,
  );

  itWhen(POSTGRES)(
    'completes a request and queues its ping in one step: a crash at the outbox write leaves the request open, and it is answered after a restart',
    async () => {
      const first = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '1' } });
      const m = await adminClient(first.baseUrl, first.adminToken).createMerchant({
        name: 'Crash shop',
        redirect_uris: [REDIRECT_URI],
        backchannel_token_delivery_mode: 'ping',
        backchannel_client_notification_endpoint: listener.url,
      });
      const cfg = await discover(`${first.baseUrl}/oidc`, m.client_id, m.client_secret);
      const started = await client.initiateBackchannelAuthentication(cfg, {
        scope: 'openid',
        login_hint: 'ping-5',
        binding_message: provisioning('ping-5'),
        client_notification_token: 'notify-token-5',
      });
      const app = new CibaAppClient(`${first.baseUrl}/app/v1`, 'ping-5', 'test-install-secret-0123456789abcdef0123').usingProvisioningCode(
        provisioningCodeOf(started),
      );
      const { requests } = await app.pending(undefined, 5);
      // The service dies while writing the callback: here, the outbox insert fails.
      await first.dataSource.query(`CREATE FUNCTION crash_outbox() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'simulated crash'; END $$ LANGUAGE plpgsql`);
      await first.dataSource.query(`CREATE TRIGGER crash_outbox BEFORE INSERT ON ciba_outbox FOR EACH ROW EXECUTE FUNCTION crash_outbox()`);
      await expect(app.decline(requests[0].id)).rejects.toThrow();
      await first.dataSource.query(`DROP TRIGGER crash_outbox ON ciba_outbox; DROP FUNCTION crash_outbox()`);
      // Nothing half done: the merchant sees no result that it would never be told about.
      expect(await pollOnce(first.baseUrl, m.client_id, m.client_secret, started.auth_req_id)).toMatchObject({
        status: 400,
        body: { error: 'authorization_pending' },
      });
      await first.app.close();
      const second = await startTestApp({ sameDatabaseAs: first });
      try {
        const again = new CibaAppClient(`${second.baseUrl}/app/v1`, 'ping-5', 'test-install-secret-0123456789abcdef0123').usingProvisioningCode(
          provisioningCodeOf(started),
        );
        await again.decline((await again.pending(undefined, 5)).requests[0].id);
        await listener.waitFor(1, 15_000);
        expect(listener.received[0]).toMatchObject({ authorization: 'Bearer notify-token-5', body: { auth_req_id: started.auth_req_id } });
        await sleep(1100);
        expect(await pollOnce(second.baseUrl, m.client_id, m.client_secret, started.auth_req_id)).toMatchObject({
          status: 400,
          body: { error: 'access_denied' },
        });
      } finally {
        await second.close();
        await first.close().catch(() => undefined);
      }
    },
    60_000,
  );
});
