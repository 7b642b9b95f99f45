import * as client from 'openid-client';
import { addLogSink, setLogLevel } from '../../src/common/logging/logger.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
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
    await t.close();
  });

  it('logs a full login without its secrets, tokens, codes or claims', async () => {
    const admin = adminClient(t.baseUrl, t.adminToken);
    const m = await admin.createMerchant({ name: 'Logged shop', redirect_uris: [REDIRECT_URI] });
    const config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    const req = await authorizationRequest(config, { scope: 'openid profile ssn' });
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    const code = callback.searchParams.get('code')!;
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: req.verifier, expectedState: req.state, expectedNonce: req.nonce });
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
});
