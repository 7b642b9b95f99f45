import * as client from 'openid-client';
import { CibaAppClient, VerifierApiError } from '@identity-broker/verifier-sdk';
import { adminClient } from '../support/admin-client.js';
import { answerOnTestPage, pollOnce, provisioning, provisioningCodeOf } from '../support/ciba-flow.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const CODE = /^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/;

/** The SDK call's refusal as `status error` (fails when the call succeeds). */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (e) {
    if (e instanceof VerifierApiError) return `${e.status} ${e.error}`;
    throw e;
  }
  throw new Error('expected the call to be refused');
}

/**
 * Spec 4.7 Provisioning: an app id is an identifier, not a secret. A provisioning is seen and answered only by
 * an app that presents the one-time code the merchant got in its backchannel answer and showed its own user.
 */
describe('CIBA provisioning bound to a one-time code the merchant shows its user', () => {
  let t: TestApp;
  let config: client.Configuration;
  let m: { client_id: string; client_secret: string };
  const base = () => `${t.baseUrl}/app/v1`;

  beforeAll(async () => {
    t = await startTestApp({ env: { CIBA_POLL_INTERVAL_SECONDS: '1' } });
    m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Code bank', redirect_uris: [REDIRECT_URI], scope: 'openid profile' });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  });
  afterAll(() => t?.close());

  const provision = (appId: string) =>
    client.initiateBackchannelAuthentication(config, { scope: 'openid profile', login_hint: appId, binding_message: provisioning(appId) });

  it('a second app that knows only the app id sees nothing and cannot approve, decline or read the request', async () => {
    const started = await provision('victim-phone');
    const impostor = new CibaAppClient(base(), 'victim-phone', 'impostor-install-secret-0123456789abcdef');
    expect((await impostor.pending()).requests).toEqual([]);
    // Nor is a long poll held for it: it proves nothing (no binding's secret, no provisioning's code), so 401 at once.
    expect(await refusal(impostor.pending(undefined, 1))).toBe('401 unauthorized');
    const code = provisioningCodeOf(started);
    expect(code).toMatch(CODE);
    // A wrong code (a valid-looking one) shows nothing either.
    const guessed = impostor.usingProvisioningCode(code.startsWith('0') ? `1${code.slice(1)}` : `0${code.slice(1)}`);
    expect((await guessed.pending()).requests).toEqual([]);

    // The user's app, with the code as the user typed it (lower case, no hyphen, O for zero) sees it.
    const typed = code.replace('-', '').toLowerCase().replace(/0/g, 'o');
    const userApp = new CibaAppClient(base(), 'victim-phone', 'user-install-secret-0123456789abcdef0123').usingProvisioningCode(typed);
    const [request] = (await userApp.pending()).requests;
    expect(request).toMatchObject({ kind: 'provisioning', merchant_name: 'Code bank', binding_message: 'Link your app' });

    // Even with the request id, the impostor is told nothing exists, whatever it tries.
    for (const app of [impostor, guessed]) {
      expect(await refusal(app.status(request.id))).toBe('404 not_found');
      expect(await refusal(app.approve(request.id))).toBe('404 not_found');
      expect(await refusal(app.complete(request.id))).toBe('404 not_found');
      expect(await refusal(app.decline(request.id))).toBe('404 not_found');
    }
    expect(await pollOnce(t.baseUrl, m.client_id, m.client_secret, started.auth_req_id)).toMatchObject({
      status: 400,
      body: { error: 'authorization_pending' },
    });

    // The user's app answers it; then the code opens nothing more.
    expect((await userApp.approve(request.id)).session_link).toEqual(expect.any(String));
    expect(await userApp.status(request.id)).toEqual({ state: 'verifying' });
    expect(await userApp.decline(request.id)).toMatchObject({ state: 'denied' });
    expect(await refusal(userApp.approve(request.id))).toBe('409 wrong_request_state');
    expect((await userApp.pending()).requests).toEqual([]);
  });

  it('binds only an app that presents its own secret: without one, approving and completing a provisioning are refused and nothing is bound', async () => {
    const started = await provision('secretless-phone');
    const secretless = new CibaAppClient(base(), 'secretless-phone').usingProvisioningCode(provisioningCodeOf(started));
    const [request] = (await secretless.pending()).requests;
    expect(request).toMatchObject({ kind: 'provisioning' });
    expect(await refusal(secretless.approve(request.id))).toBe('400 invalid_request');
    expect(await refusal(secretless.complete(request.id))).toBe('400 invalid_request');
    expect(await secretless.status(request.id)).toEqual({ state: 'pending' });
    const bound: { n: number }[] = await t.dataSource.query('SELECT count(*)::int AS n FROM ciba_app_bindings');
    // The same app with its secret goes on to the verification.
    const withSecret = new CibaAppClient(base(), 'secretless-phone', 'own-install-secret-0123456789abcdef0123').usingProvisioningCode(
      provisioningCodeOf(started),
    );
    expect((await withSecret.approve(request.id)).session_link).toEqual(expect.any(String));
    expect(await t.dataSource.query('SELECT count(*)::int AS n FROM ciba_app_bindings')).toEqual(bound);
  });

  it("opens only its own request: another provisioning's code does not show this one", async () => {
    const first = await provision('twice-phone');
    const second = await provision('twice-phone');
    const withFirst = await new CibaAppClient(base(), 'twice-phone').usingProvisioningCode(provisioningCodeOf(first)).pending();
    const withSecond = await new CibaAppClient(base(), 'twice-phone').usingProvisioningCode(provisioningCodeOf(second)).pending();
    expect(withFirst.requests).toHaveLength(1);
    expect(withSecond.requests).toHaveLength(1);
    expect(withFirst.requests[0].id).not.toBe(withSecond.requests[0].id);
    expect(provisioningCodeOf(first)).not.toBe(provisioningCodeOf(second));
  });

  it('answers the code to the merchant alone: in the signed 2.6 answer too, never for an authentication, never in clear at rest', async () => {
    const { createRemoteJWKSet, jwtVerify } = await import('jose');
    const res = await fetch(`${t.baseUrl}/oidc/ciba.html`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${m.client_id}:${m.client_secret}`).toString('base64')}`,
        accept: 'application/jwt',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ scope: 'openid', login_hint: 'jwt-phone', binding_message: provisioning('jwt-phone') }),
    });
    const meta = config.serverMetadata();
    const { payload } = await jwtVerify(await res.text(), createRemoteJWKSet(new URL(meta.jwks_uri!)), { issuer: meta.issuer, audience: m.client_id });
    expect(payload).toMatchObject({
      auth_req_id: expect.any(String),
      expires_in: expect.any(Number),
      interval: 1,
      provisioning_code: expect.stringMatching(CODE),
    });

    // The page binds the app (the test eID), so an authentication can be asked of it: it carries no code.
    const started = await provision('bound-phone');
    expect(await answerOnTestPage(t.baseUrl, 'bound-phone', 'uto-passport', provisioningCodeOf(started))).toBe('/ciba/test?app_id=bound-phone&done=approved');
    const authentication = await client.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: 'bound-phone' });
    expect(authentication).not.toHaveProperty('provisioning_code');

    const rows: { text: string }[] = await t.dataSource.query(
      `SELECT row_to_json(r)::text AS text FROM ciba_requests r UNION ALL SELECT row_to_json(p)::text FROM oidc_payloads p`,
    );
    for (const code of [payload.provisioning_code as string, provisioningCodeOf(started)]) {
      for (const form of [code, code.replace('-', '')]) expect([form, rows.some((r) => r.text.includes(form))]).toEqual([form, false]);
    }
  });
});
