import * as client from 'openid-client';
import { CibaAppClient } from '../../libs/verifier-sdk/src/index.js';
import { adminClient } from '../support/admin-client.js';
import { type CallbackListener, cibaError, provisioning, startCallbackListener } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { canShareDatabase, startTestApp, type TestApp } from '../support/test-app.js';

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
    const started = await client.initiateBackchannelAuthentication(cfg, { scope: 'openid', login_hint: appId, binding_message: provisioning(appId), client_notification_token: token });
    const app = new CibaAppClient(`${base}/app/v1`, appId);
    const { requests } = await app.pending(undefined, 5);
    await app.decline(requests[0].id);
    return started;
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '1' } });
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
    await listener.close();
    await t.close();
  });
  beforeEach(() => {
    listener.received.length = 0;
    listener.answers.length = 0;
  });

  it('requires client_notification_token of a ping merchant (invalid_request)', async () => {
    expect(await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'x', binding_message: provisioning('x') }))).toMatchObject({ error: 'invalid_request' });
  });

  it('pings {auth_req_id} with the bearer client_notification_token; the token endpoint then answers the result', async () => {
    const started = await declined(t.baseUrl, config, 'ping-1', 'notify-token-1');
    await listener.waitFor(1);
    expect(listener.received[0]).toMatchObject({ authorization: 'Bearer notify-token-1', body: { auth_req_id: started.auth_req_id } });
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

  (canShareDatabase() ? it : it.skip)('delivers after a restart: a callback that failed before the service stopped is sent by the next instance', async () => {
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
  }, 60_000);
});
