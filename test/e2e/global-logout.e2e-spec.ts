import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, loginWithTestEid, MERCHANT_ORIGIN, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { parseForms, TestBrowser, type Page } from '../support/test-browser.js';
import { SAML_ACS } from '../saml/saml-flow.js';

const LOGGED_OUT = `${MERCHANT_ORIGIN}/logged-out`;

describe('global logout: /oidc/session/end ends the broker session for OIDC and SAML merchants', () => {
  let t: TestApp;
  let merchant: { client_id: string; client_secret: string };
  let config: client.Configuration;

  beforeAll(async () => {
    t = await startTestApp();
    merchant = await adminClient(t.baseUrl, t.adminToken).createMerchant({
      name: 'Logout shop',
      redirect_uris: [REDIRECT_URI],
      post_logout_redirect_uris: [LOGGED_OUT],
      saml: { entity_id: 'https://logout.example/sp', assertion_consumer_url: SAML_ACS },
    });
    config = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
  });
  afterAll(() => t?.close());

  /** An OIDC login in `browser`'s jar; its ID token. */
  async function signedIn(): Promise<{ browser: TestBrowser; idToken: string }> {
    const req = await authorizationRequest(config);
    const { callback, browser } = await loginWithTestEid(t.baseUrl, req.url);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: req.verifier,
      expectedState: req.state,
      expectedNonce: req.nonce,
    });
    return { browser, idToken: tokens.id_token! };
  }

  /** What prompt=none answers this browser: a code while it is signed in, login_required after. */
  async function silentLogin(browser: TestBrowser): Promise<URLSearchParams> {
    const page = await browser.follow(await browser.get((await authorizationRequest(config, { prompt: 'none' })).url.toString()));
    return new URL(page.location!).searchParams;
  }

  const endSession = (params: Record<string, string>) => `${t.baseUrl}/oidc/session/end?${new URLSearchParams(params)}`;

  it('is the end_session_endpoint of the discovery document', async () => {
    const discovery = (await (await fetch(`${t.baseUrl}/oidc/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(discovery.end_session_endpoint).toBe(`${t.baseUrl}/oidc/session/end`);
  });

  it('OIDC RP-initiated logout with id_token_hint: confirm, back to the registered URI with state; then prompt=none is login_required and SAML asks again', async () => {
    const { browser, idToken } = await signedIn();
    expect((await silentLogin(browser)).get('code')).toBeTruthy();
    const page = await browser.get(endSession({ id_token_hint: idToken, post_logout_redirect_uri: LOGGED_OUT, state: 'bye' }));
    expect(page.status).toBe(200);
    expect(page.html).toContain('Logout shop');
    expect(page.html).not.toMatch(/<script/);
    const done = await browser.submit(page, 'logout', 'everywhere');
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${LOGGED_OUT}?state=bye`);
    expect((await silentLogin(browser)).get('error')).toBe('login_required');
    const saml = await browser.follow(await browser.get(`${t.baseUrl}/its/index.html?mid=${merchant.client_id}&TARGET=t`));
    expect(saml.html).toMatch(/data-(eid|person)=/);
    expect(saml.html).not.toContain('SAMLResponse');
  });

  it('a SAML merchant names itself with client_id (its mid) and returns to its registered URI', async () => {
    const { browser } = await signedIn();
    const page = await browser.get(endSession({ client_id: merchant.client_id, post_logout_redirect_uri: LOGGED_OUT }));
    const done = await browser.submit(page, 'logout', 'everywhere');
    expect(done.location).toBe(LOGGED_OUT);
    expect((await silentLogin(browser)).get('error')).toBe('login_required');
  });

  it('without a session it returns at once (the engine posts its own xsrf form to itself)', async () => {
    const browser = new TestBrowser(t.baseUrl);
    const page = await browser.get(endSession({ client_id: merchant.client_id, post_logout_redirect_uri: LOGGED_OUT, state: 's' }));
    const [form] = parseForms(page.html);
    const done: Page = await browser.post(new URL(form.action, page.url).toString(), form.fields);
    expect(done.location).toBe(`${LOGGED_OUT}?state=s`);
  });

  it('returns only to a registered URI, compared exactly', async () => {
    for (const uri of [`${LOGGED_OUT}/x`, `${LOGGED_OUT}?a=1`, 'https://evil.example/']) {
      const page = await new TestBrowser(t.baseUrl).get(endSession({ client_id: merchant.client_id, post_logout_redirect_uri: uri }));
      expect([uri, page.status, page.location]).toEqual([uri, 400, undefined]);
      expect(page.html).toContain('post_logout_redirect_uri not registered');
    }
  });

  it('without a return URI it ends on our own page', async () => {
    const { browser } = await signedIn();
    const done = await browser.follow(await browser.submit(await browser.get(endSession({ client_id: merchant.client_id })), 'logout', 'everywhere'));
    expect(done.html).toContain('data-logout="done"');
    expect((await silentLogin(browser)).get('error')).toBe('login_required');
  });

  it('refuses a confirmation without the session-bound xsrf value (CSRF): the session stays', async () => {
    const { browser, idToken } = await signedIn();
    await browser.get(endSession({ id_token_hint: idToken }));
    for (const xsrf of [undefined, 'forged']) {
      const forged = await browser.post(`${t.baseUrl}/oidc/session/end/confirm`, { logout: 'yes', ...(xsrf ? { xsrf } : {}) });
      expect(forged.status).toBe(400);
    }
    expect((await silentLogin(browser)).get('code')).toBeTruthy();
  });

  it('registers post_logout_redirect_uris like redirect URIs (https, localhost only in customer-test)', async () => {
    const admin = adminClient(t.baseUrl, t.adminToken);
    const bad = await admin.call('POST', '/admin/v1/merchants', {
      name: 'Bad',
      redirect_uris: [REDIRECT_URI],
      post_logout_redirect_uris: ['http://shop.example/out'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('post_logout_redirect_uris');
    expect((await admin.call('GET', `/admin/v1/merchants/${merchant.client_id}`)).body.post_logout_redirect_uris).toEqual([LOGGED_OUT]);
  });
});
