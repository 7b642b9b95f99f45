import * as client from 'openid-client';
import { VerifierClient } from '@identity-broker/verifier-sdk';
import { PAIRWISE_CIBA_REASON } from '../../src/merchants/merchant-policy.js';
import { adminClient } from '../support/admin-client.js';
import { cibaError, pollOnce, provisioning, provisioningCodeOf } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** POST /oidc/ciba.html (spec 4.3) and the CIBA poll (4.4), without a phone: every refusal with its exact error. */
describe('CIBA backchannel endpoint and poll', () => {
  let t: TestApp;
  let config: client.Configuration;
  let m: { client_id: string; client_secret: string };
  const app = (path: string, body: unknown) =>
    fetch(`${t.baseUrl}/app/v1/ciba${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as any }),
    );

  beforeAll(async () => {
    t = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '2', CIBA_MAX_EXPIRY_SECONDS: '300' } });
    m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'CIBA shop', redirect_uris: [REDIRECT_URI] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  });
  afterAll(() => t?.close());

  it('discovery lists what works: poll, ping and push, the CIBA grant, user codes, signed requests', async () => {
    const meta = config.serverMetadata();
    expect(meta.backchannel_authentication_endpoint).toBe(`${t.baseUrl}/oidc/ciba.html`);
    expect(meta.backchannel_token_delivery_modes_supported).toEqual(['poll', 'ping', 'push']);
    expect(meta.grant_types_supported).toContain('urn:openid:params:grant-type:ciba');
    expect(meta.backchannel_user_code_parameter_supported).toBe(true);
    expect(meta.backchannel_authentication_request_signing_alg_values_supported).toEqual(['RS256', 'PS256', 'ES256']);
  });

  it('accepts a provisioning request with parameters in the query string and HTTP Basic: JSON 2.6 with interval', async () => {
    const query = new URLSearchParams({
      scope: 'openid profile',
      login_hint: 'app-query',
      binding_message: provisioning('app-query'),
      requested_expiry: '120',
    });
    const res = await fetch(`${t.baseUrl}/oidc/ciba.html?${query}`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${m.client_id}:${m.client_secret}`).toString('base64')}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    // A provisioning also carries its one-time code, for the merchant to show its user (provisioning-code e2e).
    expect(body).toEqual({ auth_req_id: expect.any(String), expires_in: 120, interval: 2, provisioning_code: expect.any(String) });
  });

  it('authenticates the merchant by its registered method too (client_secret_post in the form body), besides the Basic of spec 4.3', async () => {
    const post = await adminClient(t.baseUrl, t.adminToken).createMerchant({
      name: 'CIBA post',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const form = { scope: 'openid', login_hint: 'app-post', binding_message: provisioning('app-post') };
    const send = (body: Record<string, string>) =>
      fetch(`${t.baseUrl}/oidc/ciba.html`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body),
      });
    const res = await send({ ...form, client_id: post.client_id, client_secret: post.client_secret });
    expect([res.status, await res.json()]).toEqual([
      200,
      { auth_req_id: expect.any(String), expires_in: expect.any(Number), interval: 2, provisioning_code: expect.any(String) },
    ]);
    const wrong = await send({ ...form, client_id: post.client_id, client_secret: `${post.client_secret}x` });
    expect([wrong.status, ((await wrong.json()) as { error: string }).error]).toEqual([401, 'invalid_client']);
  });

  it('answers the same 2.6 object as a JWT signed with the provider keys for Accept: application/jwt', async () => {
    const { createRemoteJWKSet, jwtVerify } = await import('jose');
    const res = await fetch(`${t.baseUrl}/oidc/ciba.html`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${m.client_id}:${m.client_secret}`).toString('base64')}`,
        accept: 'application/jwt',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ scope: 'openid', login_hint: 'app-jwt', binding_message: provisioning('app-jwt'), requested_expiry: '90' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/jwt/);
    const meta = config.serverMetadata();
    const { payload } = await jwtVerify(await res.text(), createRemoteJWKSet(new URL(meta.jwks_uri!)), { issuer: meta.issuer, audience: m.client_id });
    expect(payload).toMatchObject({ auth_req_id: expect.any(String), expires_in: 90, interval: 2 });
    expect(await pollOnce(t.baseUrl, m.client_id, m.client_secret, payload.auth_req_id as string)).toMatchObject({
      status: 400,
      body: { error: 'authorization_pending' },
    });
    // Errors stay JSON (spec 4.3).
    const refused = await fetch(`${t.baseUrl}/oidc/ciba.html`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${m.client_id}:${m.client_secret}`).toString('base64')}`,
        accept: 'application/jwt',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ scope: 'openid', login_hint: 'never-provisioned' }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'unknown_user_id' });
  });

  it('refuses CIBA to pairwise merchants with the reason: unauthorized_client at the request, CIBA settings at registration', async () => {
    const admin = adminClient(t.baseUrl, t.adminToken);
    const pairwise = await admin.createMerchant({ name: 'Pairwise shop', redirect_uris: [REDIRECT_URI], subject_type: 'pairwise' });
    const pairwiseConfig = await discover(`${t.baseUrl}/oidc`, pairwise.client_id, pairwise.client_secret);
    expect(
      await cibaError(client.initiateBackchannelAuthentication(pairwiseConfig, { scope: 'openid', login_hint: 'a', binding_message: provisioning('a') })),
    ).toEqual({
      error: 'unauthorized_client',
      description: PAIRWISE_CIBA_REASON,
    });
    // Said only to the merchant itself: with a wrong secret it is invalid_client, as for anyone.
    const wrongSecret = await fetch(`${t.baseUrl}/oidc/ciba.html`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${pairwise.client_id}:wrong`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ scope: 'openid', login_hint: 'a' }),
    });
    expect([wrongSecret.status, ((await wrongSecret.json()) as { error: string }).error]).toEqual([401, 'invalid_client']);
    const refused = await admin.call('POST', '/admin/v1/merchants', {
      name: 'Pairwise ping',
      redirect_uris: [REDIRECT_URI],
      subject_type: 'pairwise',
      backchannel_token_delivery_mode: 'ping',
      backchannel_client_notification_endpoint: 'https://shop.example/ciba',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({
      subject_type: [
        `pairwise merchants cannot use CIBA (backchannel_token_delivery_mode, backchannel_client_notification_endpoint set): ${PAIRWISE_CIBA_REASON}`,
      ],
    });
    expect((await admin.call('PATCH', `/admin/v1/merchants/${pairwise.client_id}`, { backchannel_user_code_parameter: true })).status).toBe(400);
    // A public merchant turning pairwise with CIBA settings is refused the same way.
    const ping = await admin.createMerchant({
      name: 'Ping',
      redirect_uris: [REDIRECT_URI],
      backchannel_token_delivery_mode: 'ping',
      backchannel_client_notification_endpoint: 'https://shop.example/ciba',
    });
    expect((await admin.call('PATCH', `/admin/v1/merchants/${ping.client_id}`, { subject_type: 'pairwise' })).status).toBe(400);
  });

  it('refuses an unknown app with unknown_user_id', async () => {
    expect(await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'never-provisioned' }))).toMatchObject({
      error: 'unknown_user_id',
    });
  });

  it('refuses a malformed binding_message with invalid_binding_message', async () => {
    const bad = [
      '{"requestType": "Provisioning", ',
      JSON.stringify({ requestType: 'Lending' }),
      JSON.stringify({ requestType: 'Provisioning', appId: 'a', userStatus: 'sleepy' }),
      'x'.repeat(9000),
    ];
    for (const binding_message of bad)
      expect(await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'a', binding_message }))).toMatchObject({
        error: 'invalid_binding_message',
      });
  });

  it('refuses a bad requested_expiry with invalid_request', async () => {
    for (const requested_expiry of ['0', '-5', 'soon', '301'])
      expect(
        await cibaError(
          client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'a', binding_message: provisioning('a'), requested_expiry }),
        ),
      ).toMatchObject({
        error: 'invalid_request',
      });
  });

  it('refuses an expired login_hint_token with expired_login_hint_token', async () => {
    const { SignJWT } = await import('jose');
    const token = await new SignJWT({ app_id: 'a' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(m.client_secret));
    expect(await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint_token: token }))).toMatchObject({
      error: 'expired_login_hint_token',
    });
  });

  it('answers authorization_pending, then slow_down with a growing interval to a poll faster than the interval', async () => {
    const { auth_req_id } = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'app-slow',
      binding_message: provisioning('app-slow'),
    });
    expect(await pollOnce(t.baseUrl, m.client_id, m.client_secret, auth_req_id)).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });
    const fast = await pollOnce(t.baseUrl, m.client_id, m.client_secret, auth_req_id);
    expect(fast).toMatchObject({ status: 400, body: { error: 'slow_down' } });
    expect(fast.body.error_description).toContain('7 seconds');
  });

  it('answers a poll only to the authenticated owner: a wrong secret or another merchant changes and learns nothing', async () => {
    const other = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Other shop', redirect_uris: [REDIRECT_URI] });
    const { auth_req_id } = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'app-gate',
      binding_message: provisioning('app-gate'),
    });
    expect(await pollOnce(t.baseUrl, m.client_id, m.client_secret, auth_req_id)).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });
    // Within the interval: a poll that only claims the owner's client_id must neither slow the owner down nor say slow_down.
    for (let i = 0; i < 3; i++)
      expect(await pollOnce(t.baseUrl, m.client_id, 'not-the-secret', auth_req_id)).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    for (let i = 0; i < 3; i++)
      expect(await pollOnce(t.baseUrl, other.client_id, other.client_secret, auth_req_id)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    await new Promise((r) => setTimeout(r, 2100));
    expect(await pollOnce(t.baseUrl, m.client_id, m.client_secret, auth_req_id)).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });

    const expiring = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'app-gate-exp',
      binding_message: provisioning('app-gate-exp'),
      requested_expiry: '1',
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await pollOnce(t.baseUrl, m.client_id, 'not-the-secret', expiring.auth_req_id)).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const foreign = await pollOnce(t.baseUrl, other.client_id, other.client_secret, expiring.auth_req_id);
    const unknown = await pollOnce(t.baseUrl, other.client_id, other.client_secret, 'no-such-auth-req-id');
    expect(foreign).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(foreign.body.error_description).toBe(unknown.body.error_description);
  });

  it('answers expired_token once the request has expired', async () => {
    const { auth_req_id, expires_in } = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'app-exp',
      binding_message: provisioning('app-exp'),
      requested_expiry: '1',
    });
    expect(expires_in).toBe(1);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await pollOnce(t.baseUrl, m.client_id, m.client_secret, auth_req_id)).toMatchObject({ status: 400, body: { error: 'expired_token' } });
  });

  it('shows a provisioning request to the app, with its binding message; declining it gives the poll access_denied', async () => {
    const transactiontext = Buffer.from('Pay **100 NOK** <img src=x onerror=alert(1)>').toString('base64');
    const resp = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'app-decline',
      binding_message: provisioning('app-decline', { transactiontext, transactiontext_type: 'markdown' }),
    });
    const declining = { app_id: 'app-decline', provisioning_code: provisioningCodeOf(resp) };
    const pending = await app('/requests/pending', { ...declining, wait_seconds: 2 });
    expect(pending.status).toBe(200);
    expect(pending.body.requests).toEqual([
      expect.objectContaining({
        kind: 'provisioning',
        merchant_name: 'CIBA shop',
        binding_message: 'Link your app',
        transaction_text: { type: 'markdown', content: 'Pay **100 NOK** ' },
      }),
    ]);
    expect(await app(`/requests/${pending.body.requests[0].id}/decline`, declining)).toMatchObject({ status: 200, body: { state: 'denied' } });
    expect(await cibaError(client.pollBackchannelAuthenticationGrant(config, resp))).toMatchObject({ error: 'access_denied' });
    // Another app id sees nothing; the cursor moves past what was seen.
    expect((await app('/requests/pending', { app_id: 'someone-else' })).body.requests).toEqual([]);
  });

  it('gives the app the binding message and transaction text sanitized, never as HTML (also in the verification session); refuses more than 1500 Base64 characters', async () => {
    const hostile = [
      '**Pay 100 NOK** to <b>Shop</b><script>alert(1)</script>',
      '<img src=x onerror=alert(1)>[terms](javascript:alert(document.cookie)) ![pixel](https://tracker.example/p.png)',
      '<svg/onload=alert(1)>[a [b] c](data:text/html,x) [ok](https://shop.example/terms) <a href="https://evil.example">here</a> <iframe src=//evil.example',
    ].join('\n');
    const transactiontext = Buffer.from(hostile).toString('base64');
    const binding_message = provisioning('app-hostile', {
      bindingMessage: 'Link <b onmouseover=alert(1)>your</b> app<!-- x -->',
      transactiontext,
      transactiontext_type: 'markdown',
    });
    const hostileApp = {
      app_id: 'app-hostile',
      app_secret: 'hostile-install-secret-0123456789abcdef0123',
      provisioning_code: provisioningCodeOf(
        await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'app-hostile', binding_message }),
      ),
    };
    const [shown] = (await app('/requests/pending', { ...hostileApp, wait_seconds: 2 })).body.requests;
    const expected = {
      binding_message: 'Link your app',
      transaction_text: {
        type: 'markdown',
        content: [
          '**Pay 100 NOK** to Shopalert(1)',
          '[terms] (javascript:alert(document.cookie)) [pixel](https://tracker.example/p.png)',
          '[a [b] c] (data:text/html,x) [ok](https://shop.example/terms) here ',
        ].join('\n'),
      },
    };
    expect(shown).toMatchObject(expected);
    // The verification session the app opens to approve shows the same texts, sanitized the same way.
    const { session_link } = (await app(`/requests/${shown.id}/approve`, hostileApp)).body;
    const { client: session, qrToken } = VerifierClient.fromLink(session_link);
    const opened = await session.open(qrToken);
    expect(opened.requirements).toMatchObject(expected);
    expect(JSON.stringify([shown, opened])).not.toMatch(/<[a-z!/?]/i);
    expect(await app(`/requests/${shown.id}/decline`, hostileApp)).toMatchObject({ status: 200, body: { state: 'denied' } });

    // Plain text is sanitized too; 1500 Base64 characters pass, 1501 are refused.
    const plain = Buffer.from('Pay <b>100</b> NOK <img src=x').toString('base64');
    const plainStarted = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'app-plain',
      binding_message: provisioning('app-plain', { transactiontext: plain }),
    });
    const plainShown = await app('/requests/pending', { app_id: 'app-plain', provisioning_code: provisioningCodeOf(plainStarted), wait_seconds: 2 });
    expect(plainShown.body.requests[0].transaction_text).toEqual({ type: 'text', content: 'Pay 100 NOK ' });
    const longest = Buffer.from('x'.repeat(1125)).toString('base64');
    expect(longest).toHaveLength(1500);
    await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'app-long',
      binding_message: provisioning('app-long', { transactiontext: longest }),
    });
    expect(
      await cibaError(
        client.initiateBackchannelAuthentication(config, {
          scope: 'openid',
          login_hint: 'app-long',
          binding_message: provisioning('app-long', { transactiontext: `${longest}QQ==` }),
        }),
      ),
    ).toEqual({
      error: 'invalid_binding_message',
      description: 'binding_message transactiontext is longer than 1500 Base64 characters',
    });
  });

  it('cancels a pending request of the same merchant (operation cancel): the poll gets access_denied, the app sees it cancelled', async () => {
    const cancel = (cfg: client.Configuration, auth_req_id: string) =>
      client.initiateBackchannelAuthentication(cfg, { scope: 'openid', binding_message: JSON.stringify({ operation: 'cancel', auth_req_id }) });
    const other = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Other shop', redirect_uris: [REDIRECT_URI] });
    const otherConfig = await discover(`${t.baseUrl}/oidc`, other.client_id, other.client_secret);
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'app-cancel',
      binding_message: provisioning('app-cancel'),
    });
    const cancelApp = { app_id: 'app-cancel', provisioning_code: provisioningCodeOf(started) };
    const [shown] = (await app('/requests/pending', { ...cancelApp, wait_seconds: 2 })).body.requests;

    // Another merchant's auth_req_id is answered exactly as an unknown one, and cancels nothing.
    const foreign = await cibaError(cancel(otherConfig, started.auth_req_id));
    const unknown = await cibaError(cancel(config, 'no-such-auth-req-id'));
    expect(foreign).toEqual(unknown);
    expect(unknown).toMatchObject({ error: 'invalid_request' });
    expect(await pollOnce(t.baseUrl, m.client_id, m.client_secret, started.auth_req_id)).toMatchObject({ body: { error: 'authorization_pending' } });

    const cancelled = await cancel(config, started.auth_req_id);
    expect(cancelled).toMatchObject({ auth_req_id: started.auth_req_id, expires_in: expect.any(Number), interval: 2 });
    expect(await cibaError(client.pollBackchannelAuthenticationGrant(config, started))).toMatchObject({ error: 'access_denied' });
    expect(await app(`/requests/${shown.id}/status`, cancelApp)).toMatchObject({ status: 200, body: { state: 'cancelled' } });
    expect(await app(`/requests/${shown.id}/decline`, cancelApp)).toMatchObject({ status: 409, body: { error: 'wrong_request_state' } });
    expect((await app('/requests/pending', cancelApp)).body.requests).toEqual([]);
    // Once answered it is no longer open: a second cancel gets the same answer as an unknown id.
    expect(await cibaError(cancel(config, started.auth_req_id))).toEqual(unknown);
  });
});
