import * as client from 'openid-client';
import { CibaAppClient } from '@identity-broker/verifier-sdk';
import { adminClient } from '../support/admin-client.js';
import { answerOnTestPage, cibaError, pollOnce, provisioning, provisioningCodeOf } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Spec 3 userStatus and issue 10 point 2: a suspended or unknown app answers unknown_user_id; operators read a
 * provisioned app's status (admin and support) and suspend or reactivate it (admin only, audited).
 */
describe('CIBA app status: suspended apps and the admin call', () => {
  let t: TestApp;
  let config: client.Configuration;
  let admin: ReturnType<typeof adminClient>;
  let clientId: string;
  let clientSecret: string;
  const UNKNOWN = { error: 'unknown_user_id', description: 'no active app with this id is provisioned for this merchant' };
  const appPath = (appId: string) => `/admin/v1/merchants/${clientId}/ciba-apps/${encodeURIComponent(appId)}`;

  beforeAll(async () => {
    t = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '1' } });
    admin = adminClient(t.baseUrl, t.adminToken);
    const m = await admin.createMerchant({ name: 'Status shop', redirect_uris: [REDIRECT_URI], scope: 'openid profile' });
    clientId = m.client_id;
    clientSecret = m.client_secret;
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  });
  afterAll(() => t?.close());

  it('answers unknown_user_id for an app never provisioned, and the admin API knows no such app (404)', async () => {
    expect(await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'never-bound' }))).toEqual(UNKNOWN);
    expect((await admin.call('GET', appPath('never-bound'))).status).toBe(404);
    expect((await admin.call('PUT', `${appPath('never-bound')}/status`, { status: 'active' })).status).toBe(404);
  });

  it('answers unknown_user_id for an app provisioned as suspended; an admin reactivates it, support may only read, each change audited', async () => {
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid profile',
      login_hint: 'susp-app',
      binding_message: provisioning('susp-app', { userStatus: 'suspended' }),
    });
    expect(await answerOnTestPage(t.baseUrl, 'susp-app', 'uto-passport', provisioningCodeOf(started))).toBe('/ciba/test?app_id=susp-app&done=approved');
    const provisioned = await client.pollBackchannelAuthenticationGrant(config, started);
    expect(provisioned.claims()).toMatchObject({ authentication_result: 'pass' });

    expect(await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'susp-app' }))).toEqual(UNKNOWN);
    // id_token_hint names the person: a suspended app is no way to reach them either.
    expect(await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', id_token_hint: provisioned.id_token! }))).toEqual({
      error: 'unknown_user_id',
      description: 'no active app is provisioned for this user at this merchant',
    });

    const read = await admin.call('GET', appPath('susp-app'));
    expect(read).toMatchObject({
      status: 200,
      body: { client_id: clientId, app_id: 'susp-app', status: 'suspended', id: expect.any(String), bound_at: expect.any(String) },
    });
    expect(read.text).not.toContain(provisioned.claims()!.sub);

    const support = (await admin.call('POST', '/admin/v1/tokens', { role: 'support', label: 'desk' })).body.token as string;
    expect(await admin.call('GET', appPath('susp-app'), undefined, support)).toMatchObject({ status: 200, body: { status: 'suspended' } });
    expect(await admin.call('PUT', `${appPath('susp-app')}/status`, { status: 'active' }, support)).toMatchObject({ status: 403 });
    expect((await admin.call('GET', appPath('susp-app'), undefined, '')).status).toBe(401);
    expect(await admin.call('PUT', `${appPath('susp-app')}/status`, { status: 'sleepy' })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect((await admin.call('GET', appPath('susp-app'))).body.status).toBe('suspended');

    expect(await admin.call('PUT', `${appPath('susp-app')}/status`, { status: 'active' })).toMatchObject({
      status: 200,
      body: { status: 'active', app_id: 'susp-app' },
    });
    const auth = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'susp-app' });
    expect(await answerOnTestPage(t.baseUrl, 'susp-app', 'uto-passport')).toBe('/ciba/test?app_id=susp-app&done=approved');
    expect((await client.pollBackchannelAuthenticationGrant(config, auth)).claims()!.sub).toBe(provisioned.claims()!.sub);

    // Suspended while a request is open: the app can no longer answer it, and new requests are refused.
    const open = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'susp-app' });
    const phone = new CibaAppClient(`${t.baseUrl}/app/v1`, 'susp-app');
    const [shown] = (await phone.pending(undefined, 2)).requests;
    expect(await admin.call('PUT', `${appPath('susp-app')}/status`, { status: 'suspended' })).toMatchObject({ status: 200, body: { status: 'suspended' } });
    expect((await phone.pending()).requests).toEqual([]);
    await expect(phone.decline(shown.id)).rejects.toMatchObject({ status: 403, error: 'app_suspended' });
    expect(await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'susp-app' }))).toEqual(UNKNOWN);
    // The open request stays unanswered until it expires (then expired_token).
    expect(await pollOnce(t.baseUrl, clientId, clientSecret, open.auth_req_id)).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });

    // Setting the status it already has changes nothing and is not audited.
    expect((await admin.call('PUT', `${appPath('susp-app')}/status`, { status: 'suspended' })).status).toBe(200);
    const audit = await admin.call('GET', `/admin/v1/audit?target_type=ciba_app_binding&target_id=${read.body.id}`);
    expect(audit.body.items.map((r: { action: string; changes: unknown; actor_role?: string }) => [r.action, r.changes])).toEqual([
      ['ciba_app.suspend', { client_id: clientId, status: 'suspended' }],
      ['ciba_app.reactivate', { client_id: clientId, status: 'active' }],
    ]);
    expect(audit.text).not.toContain('susp-app');
  }, 60_000);
});
