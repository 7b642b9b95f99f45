import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { answerOnTestPage, cibaError, provisioning, provisioningCodeOf, startCallbackListener } from '../support/ciba-flow.js';
import { createFapiMerchant, fapiConfiguration, type FapiMerchant } from '../support/fapi2-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * CIBA for a fapi2 merchant, as the FAPI-CIBA profile reads with the FAPI 2.0 Security Profile: openid-client
 * authenticates with private_key_jwt, sends a binding message, and polls with DPoP proofs for sender-constrained
 * tokens; then the requests a misbehaving client would send, each with the refusal the profile or CIBA Core names.
 */
describe('CIBA for a fapi2 merchant (FAPI-CIBA)', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminClient>;
  let bank: FapiMerchant;
  let config: client.Configuration;
  const appId = 'fapi-ciba-app';

  beforeAll(async () => {
    t = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '1' } });
    admin = adminClient(t.baseUrl, t.adminToken);
    bank = await createFapiMerchant(admin, 'ES256', 'FAPI CIBA bank');
    config = await fapiConfiguration(`${t.baseUrl}/oidc`, bank);
    // The app is bound at the bank once (a provisioning, answered on customer-test's CIBA page), polled with DPoP.
    const started = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: appId, binding_message: provisioning(appId) });
    expect(await answerOnTestPage(t.baseUrl, appId, 'uto-passport', provisioningCodeOf(started))).toContain('done=approved');
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    expect((await client.pollBackchannelAuthenticationGrant(config, started, undefined, { DPoP: dpop })).token_type.toLowerCase()).toBe('dpop');
  });
  afterAll(() => t?.close());

  it('poll mode: private_key_jwt, a binding message, DPoP-bound tokens (SP 5.3.2.1), user-info with a proof', async () => {
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid profile',
      login_hint: appId,
      binding_message: 'Pay 25 EUR, code 4711',
    });
    expect(await answerOnTestPage(t.baseUrl, appId, 'uto-passport')).toContain('done=approved');
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
    const tokens = await client.pollBackchannelAuthenticationGrant(config, started, undefined, { DPoP: dpop });
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    const sub = tokens.claims()!.sub;
    expect((await client.fetchUserInfo(config, tokens.access_token, sub, { DPoP: dpop })).sub).toBe(sub);
  });

  it('ping mode ("may support CIBA ping mode"): the notification names the request; the tokens are fetched with a DPoP proof', async () => {
    const listener = await startCallbackListener();
    try {
      const pinged = await createFapiMerchant(admin, 'ES256', 'FAPI CIBA ping bank', {
        backchannel_token_delivery_mode: 'ping',
        backchannel_client_notification_endpoint: listener.url,
      });
      const pingConfig = await fapiConfiguration(`${t.baseUrl}/oidc`, pinged);
      const started = await client.initiateBackchannelAuthentication(pingConfig, {
        scope: 'openid',
        login_hint: 'fapi-ping-app',
        binding_message: provisioning('fapi-ping-app'),
        client_notification_token: 'ping-token-fapi-0123456789',
      });
      expect(await answerOnTestPage(t.baseUrl, 'fapi-ping-app', 'uto-passport', provisioningCodeOf(started))).toContain('done=approved');
      await listener.waitFor(1);
      // CIBA Core 10.2: only the auth_req_id, with the merchant's bearer token; no token goes to the callback.
      expect(listener.received[0]).toMatchObject({ authorization: 'Bearer ping-token-fapi-0123456789', body: { auth_req_id: started.auth_req_id } });
      const dpop = client.getDPoPHandle(pingConfig, await client.randomDPoPKeyPair('ES256'));
      expect((await client.pollBackchannelAuthenticationGrant(pingConfig, started, undefined, { DPoP: dpop })).token_type.toLowerCase()).toBe('dpop');
    } finally {
      await listener.close();
    }
  });

  it('FAPI-CIBA "require a binding_message": none is invalid_request, one with no text for the person invalid_binding_message', async () => {
    expect(await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: appId }))).toMatchObject({
      error: 'invalid_request',
      description: expect.stringMatching(/binding_message is required/),
    });
    const noText = JSON.stringify({ requestType: 'Authentication', 'ntdr-doc-types': 'P' });
    expect(await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: appId, binding_message: noText }))).toMatchObject({
      error: 'invalid_binding_message',
    });
  });

  it('SP 5.3.2.1 sender-constrained tokens: a poll without a DPoP proof is refused (invalid_dpop_proof)', async () => {
    const started = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: appId, binding_message: 'Sign in, code 1234' });
    expect(await answerOnTestPage(t.baseUrl, appId, 'uto-passport')).toContain('done=approved');
    await expect(client.pollBackchannelAuthenticationGrant(config, started)).rejects.toMatchObject({ error: 'invalid_dpop_proof' });
  });

  it('SP 5.4.1 / SP 5.3.2.1: a login_hint_token (HS256 with the client secret) is refused (invalid_request)', async () => {
    expect(
      await cibaError(client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint_token: 'a.b.c', binding_message: 'code 1' })),
    ).toMatchObject({
      error: 'invalid_request',
      description: expect.stringMatching(/not available to fapi2 merchants/),
    });
  });

  it("SP 5.3.2.1 (no shared secrets): the bank's client secret is refused at the backchannel endpoint (invalid_client)", async () => {
    const basic = `Basic ${Buffer.from(`${bank.clientId}:${bank.clientSecret}`).toString('base64')}`;
    const res = await fetch(`${t.baseUrl}/oidc/ciba.html`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ scope: 'openid', login_hint: appId, binding_message: 'code 2' }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('FAPI-CIBA "shall not support CIBA push mode": a fapi2 merchant registered for push is refused', async () => {
    const res = await admin.call('PATCH', `/admin/v1/merchants/${bank.clientId}`, {
      backchannel_token_delivery_mode: 'push',
      backchannel_client_notification_endpoint: 'https://bank.example/ciba',
    });
    expect(res).toMatchObject({ status: 400, body: { fields: { backchannel_token_delivery_mode: [expect.stringMatching(/no push mode/)] } } });
  });
});
