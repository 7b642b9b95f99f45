import * as client from 'openid-client';
import { addLogSink, setLogLevel } from '../../src/common/logging/logger.js';
import { CibaAppClient } from '@identity-broker/verifier-sdk';
import { adminClient } from '../support/admin-client.js';
import { provisioning, provisioningCodeOf } from '../support/ciba-flow.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { offerFor } from '../support/credential-issuer.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The logs carry request ids and facts about requests, never secrets, tokens or personal data. */
describe('log hygiene', () => {
  let t: TestApp;
  const lines: string[] = [];
  let stop: () => void;

  beforeAll(async () => {
    stop = addLogSink((line) => lines.push(line), { capture: true });
    t = await startTestApp({ env: { LOG_LEVEL: 'debug' } });
    setLogLevel('debug');
  });
  afterAll(async () => {
    stop();
    setLogLevel('silent');
    await t?.close();
  });

  it('logs a full login without its secrets, tokens, codes or claims', async () => {
    const admin = adminClient(t.baseUrl, t.adminToken);
    const m = await admin.createMerchant({ name: 'Logged shop', redirect_uris: [REDIRECT_URI] });
    const config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    const req = await authorizationRequest(config, { scope: 'openid profile ssn' });
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    const code = callback.searchParams.get('code')!;
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: req.verifier,
      expectedState: req.state,
      expectedNonce: req.nonce,
    });
    await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    await admin.call('POST', '/admin/v1/merchants', '{"broken": ');

    const log = lines.join('');
    const requests = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request');
    expect(requests.length).toBeGreaterThan(8);
    for (const r of requests) expect(r.request_id).toEqual(expect.any(String));
    expect(requests.some((r) => r.path === '/oidc/token' && r.status === 200)).toBe(true);
    const secrets = {
      clientSecret: m.client_secret,
      adminToken: t.adminToken,
      code,
      accessToken: tokens.access_token,
      idToken: tokens.id_token!,
      verifier: req.verifier,
      state: req.state,
      documentNumber: 'L898902C3',
      surname: 'ERIKSSON',
      personalNumber: 'ZE184226B',
    };
    for (const [name, value] of Object.entries(secrets)) expect([name, log.includes(value)]).toEqual([name, false]);
  });

  it("logs a CIBA provisioning without its one-time code, the app's secret or the app id", async () => {
    lines.length = 0;
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Logged bank', redirect_uris: [REDIRECT_URI] });
    const config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    const appId = 'logged-phone-4f1d';
    const appSecret = 'logged-install-secret-0123456789abcdef0';
    const started = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: appId, binding_message: provisioning(appId) });
    const code = provisioningCodeOf(started);
    const installed = new CibaAppClient(`${t.baseUrl}/app/v1`, appId, appSecret);
    // A wrong code and a malformed body are refused; the right code declines the request.
    expect((await installed.usingProvisioningCode('ZZZZZ-ZZZZZ').pending()).requests).toEqual([]);
    await fetch(`${t.baseUrl}/app/v1/ciba/requests/pending`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"app_id": "${appId}", "provisioning_code": "${code}", "after": "x"}`,
    });
    const app = installed.usingProvisioningCode(code);
    const [request] = (await app.pending()).requests;
    expect(await app.decline(request.id)).toMatchObject({ state: 'denied' });

    const log = lines.join('');
    expect(lines.some((l) => l.includes('/app/v1/ciba/requests/pending'))).toBe(true);
    for (const [name, value] of Object.entries({ code, bareCode: code.replace('-', ''), appSecret, appId, authReqId: started.auth_req_id }))
      expect([name, log.includes(value)]).toEqual([name, false]);
  });

  it("logs a credential offer's route, not its handle, its pre-authorized code or the revocation handle", async () => {
    const { offer, offerUri } = await offerFor(t);
    const offerObject = (await (await fetch(offerUri)).json()) as { grants: Record<string, Record<string, string>> };
    const revokeHandle = offer.revokeUrl.split('/').pop()!;
    expect((await fetch(offer.revokeUrl)).status).toBeLessThan(500);
    const preAuthorizedCode = Object.values(offerObject.grants)[0]['pre-authorized_code'];
    const log = lines.join('');
    const paths = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'request')
      .map((l) => l.path);
    expect(paths).toEqual(expect.arrayContaining(['/vci/offers/:handle', '/vci/revoke/:handle']));
    for (const secret of [offerUri.split('/').pop()!, preAuthorizedCode, revokeHandle]) expect(log).not.toContain(secret);
  });
});
