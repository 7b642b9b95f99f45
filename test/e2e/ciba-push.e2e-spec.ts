import { createHash } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { approveWithVerification, CibaAppClient } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { adminClient } from '../support/admin-client.js';
import { MAX_ATTEMPTS } from '../../src/ciba/outbox/ciba-outbox.service.js';
import { answerOnTestPage, type CallbackListener, pollOnce, provisioning, provisioningCodeOf, startCallbackListener } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { SHELDON, specimenDocumentDir } from '../support/verifier-flow.js';
import { itWhen, POSTGRES } from '../support/when-available.js';

const halfHash = (value: string) => createHash('sha256').update(value).digest().subarray(0, 16).toString('base64url');
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/**
 * Push delivery (CIBA Core 10.3.1, 12) to a real HTTP listener through the outbox: the token response itself
 * after an approval with a specimen document, the error after a decline or a cancel; retried on 5xx, and
 * delivered by another instance after a restart.
 */
describe('CIBA push delivery', () => {
  let t: TestApp;
  let listener: CallbackListener;
  let config: client.Configuration;
  let m: { client_id: string; client_secret: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '1' } });
    listener = await startCallbackListener();
    m = await adminClient(t.baseUrl, t.adminToken).createMerchant({
      name: 'Push shop',
      redirect_uris: [REDIRECT_URI],
      scope: 'openid profile offline_access',
      backchannel_token_delivery_mode: 'push',
      backchannel_client_notification_endpoint: listener.url,
    });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  }, 120_000);
  afterAll(async () => {
    await listener?.close();
    await t?.close();
  }, 120_000);
  beforeEach(() => {
    listener.received.length = 0;
    listener.answers.length = 0;
  });

  it('lists push in discovery', () => {
    expect(config.serverMetadata().backchannel_token_delivery_modes_supported).toEqual(['poll', 'ping', 'push']);
  });

  it('pushes the token response after an approval (a 500 first is retried): signed ID token with auth_req_id, at_hash, rt_hash; the access token works at userinfo', async () => {
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid profile offline_access',
      login_hint: 'push-phone',
      binding_message: provisioning('push-phone'),
      client_notification_token: 'push-token-1',
    });
    listener.answers.push(500);
    const app = new CibaAppClient(`${t.baseUrl}/app/v1`, 'push-phone', 'push-install-secret-0123456789abcdef0123').usingProvisioningCode(
      provisioningCodeOf(started),
    );
    const [request] = (await app.pending(undefined, 10)).requests;
    const documentDir = await specimenDocumentDir(t.baseUrl);
    const { result } = await approveWithVerification(
      app,
      request,
      specimenPhone({ documentDir, selfie: SHELDON.center, left: SHELDON.left, right: SHELDON.right }),
    );
    expect(result).toEqual({ state: 'approved' });
    await listener.waitFor(2, 20_000);
    expect(listener.received.map((r) => r.status)).toEqual([500, 204]);
    const push = listener.received[1];
    expect(push.authorization).toBe('Bearer push-token-1');
    expect(push.body).toMatchObject({
      auth_req_id: started.auth_req_id,
      access_token: expect.any(String),
      token_type: 'BEARER',
      expires_in: expect.any(Number),
      id_token: expect.any(String),
      refresh_token: expect.any(String),
    });
    const body = push.body as Record<string, string>;

    const meta = config.serverMetadata();
    const { payload } = await jwtVerify(body.id_token, createRemoteJWKSet(new URL(meta.jwks_uri!)), { issuer: meta.issuer, audience: m.client_id });
    expect(payload).toMatchObject({
      'urn:openid:params:jwt:claim:auth_req_id': started.auth_req_id,
      at_hash: halfHash(body.access_token),
      'urn:openid:params:jwt:claim:rt_hash': halfHash(body.refresh_token),
      primary_identifier: 'NORDMANN',
      authentication_result: 'pass',
    });
    expect(payload.amr).toEqual(expect.arrayContaining(['sc', 'face']));

    const userinfo = await fetch(meta.userinfo_endpoint!, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(userinfo.status).toBe(200);
    const { payload: info } = await jwtVerify(await userinfo.text(), createRemoteJWKSet(new URL(meta.jwks_uri!)), {
      issuer: meta.issuer,
      audience: m.client_id,
    });
    expect(info).toMatchObject({ sub: payload.sub, primary_identifier: 'NORDMANN' });

    // The tokens were delivered once: the request is consumed, a poll gets nothing more.
    expect(await pollOnce(t.baseUrl, m.client_id, m.client_secret, started.auth_req_id)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const refreshed = await fetch(`${t.baseUrl}/oidc/token`, {
      method: 'POST',
      headers: { authorization: basic(m.client_id, m.client_secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: body.refresh_token }),
    });
    expect(refreshed.status).toBe(200);
  }, 300_000);

  it('pushes access_denied with the auth_req_id after a decline, and after a cancel', async () => {
    const declined = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'push-2',
      binding_message: provisioning('push-2'),
      client_notification_token: 'push-token-2',
    });
    const app = new CibaAppClient(`${t.baseUrl}/app/v1`, 'push-2', 'test-install-secret-0123456789abcdef0123').usingProvisioningCode(
      provisioningCodeOf(declined),
    );
    await app.decline((await app.pending(undefined, 5)).requests[0].id);
    await listener.waitFor(1);
    expect(listener.received[0]).toMatchObject({ authorization: 'Bearer push-token-2', body: { auth_req_id: declined.auth_req_id, error: 'access_denied' } });

    const cancelled = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'push-3',
      binding_message: provisioning('push-3'),
      client_notification_token: 'push-token-3',
    });
    await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      client_notification_token: 'push-token-3',
      binding_message: JSON.stringify({ operation: 'cancel', auth_req_id: cancelled.auth_req_id }),
    });
    await listener.waitFor(2);
    expect(listener.received[1]).toMatchObject({ authorization: 'Bearer push-token-3', body: { auth_req_id: cancelled.auth_req_id, error: 'access_denied' } });
  });

  it('does not retry a push answered 400', async () => {
    listener.answers.push(400);
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'push-4',
      binding_message: provisioning('push-4'),
      client_notification_token: 'push-token-4',
    });
    const app = new CibaAppClient(`${t.baseUrl}/app/v1`, 'push-4', 'test-install-secret-0123456789abcdef0123').usingProvisioningCode(
      provisioningCodeOf(started),
    );
    await app.decline((await app.pending(undefined, 5)).requests[0].id);
    await listener.waitFor(1);
    await new Promise((r) => setTimeout(r, 3000));
    expect(listener.received.map((r) => r.status)).toEqual([400]);
  }, 30_000);

  it('revokes the pushed tokens when the push is given up for good: answered 4xx, or failed on the last try', async () => {
    const meta = config.serverMetadata();
    /** A push of tokens the listener refuses as told; answers what it was sent. */
    const refusedPush = async (appId: string, statuses: number[], beforeLastTry?: () => Promise<void>) => {
      listener.received.length = 0;
      listener.answers.push(...statuses);
      const started = await client.initiateBackchannelAuthentication(config, {
        scope: 'openid profile offline_access',
        login_hint: appId,
        binding_message: provisioning(appId),
        client_notification_token: `t-${appId}`,
      });
      expect(await answerOnTestPage(t.baseUrl, appId, 'uto-passport', provisioningCodeOf(started))).toBe(`/ciba/test?app_id=${appId}&done=approved`);
      await listener.waitFor(1);
      if (beforeLastTry) await beforeLastTry();
      await listener.waitFor(statuses.length, 15_000);
      const sent = listener.received[statuses.length - 1].body as Record<string, string>;
      expect(sent).toMatchObject({ auth_req_id: started.auth_req_id, access_token: expect.any(String), refresh_token: expect.any(String) });
      // Given up in the same step as the revocation: wait for the row to be marked.
      for (let i = 0; i < 50 && !(await t.dataSource.query(`SELECT 1 FROM ciba_outbox WHERE state = 'failed'`)).length; i++)
        await new Promise((r) => setTimeout(r, 100));
      return sent;
    };
    const assertRevoked = async (sent: Record<string, string>) => {
      const userinfo = await fetch(meta.userinfo_endpoint!, { headers: { authorization: `Bearer ${sent.access_token}` } });
      expect(userinfo.status).toBe(401);
      const refreshed = await fetch(`${t.baseUrl}/oidc/token`, {
        method: 'POST',
        headers: { authorization: basic(m.client_id, m.client_secret), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: sent.refresh_token }),
      });
      expect(refreshed.status).toBe(400);
      expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });
    };

    await t.dataSource.query(`DELETE FROM ciba_outbox`);
    await assertRevoked(await refusedPush('push-given-up-4xx', [400]));
    expect(await t.dataSource.query(`SELECT state, last_error FROM ciba_outbox`)).toEqual([{ state: 'failed', last_error: 'HTTP 400' }]);

    // 5xx is retried; the last allowed try failing gives up too (here the earlier tries are counted as spent).
    await t.dataSource.query(`DELETE FROM ciba_outbox`);
    const sent = await refusedPush('push-given-up-5xx', [503, 503], () =>
      t.dataSource.query(`UPDATE ciba_outbox SET attempts = $1 - 1 WHERE state = 'pending'`, [MAX_ATTEMPTS]),
    );
    expect(await t.dataSource.query(`SELECT state, attempts, last_error FROM ciba_outbox`)).toEqual([
      { state: 'failed', attempts: MAX_ATTEMPTS, last_error: 'HTTP 503' },
    ]);
    await assertRevoked(sent);
  }, 60_000);

  itWhen(POSTGRES)(
    'delivers a push after a restart',
    async () => {
      listener.answers.push(503);
      const started = await client.initiateBackchannelAuthentication(config, {
        scope: 'openid',
        login_hint: 'push-5',
        binding_message: provisioning('push-5'),
        client_notification_token: 'push-token-5',
      });
      const app = new CibaAppClient(`${t.baseUrl}/app/v1`, 'push-5', 'test-install-secret-0123456789abcdef0123').usingProvisioningCode(
        provisioningCodeOf(started),
      );
      await app.decline((await app.pending(undefined, 5)).requests[0].id);
      await listener.waitFor(1);
      await t.app.close();
      const second = await startTestApp({ sameDatabaseAs: t });
      try {
        await listener.waitFor(2, 15_000);
        expect(listener.received.map((r) => r.status)).toEqual([503, 204]);
        expect(listener.received[1].body).toMatchObject({ auth_req_id: started.auth_req_id, error: 'access_denied' });
      } finally {
        await second.close();
      }
    },
    60_000,
  );
});
