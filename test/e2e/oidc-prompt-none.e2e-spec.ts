import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, firstResponse, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * prompt=none at merchant B for a user logged in only at merchant A must look exactly like having no
 * session: a different answer would tell B (or anyone who can make the browser ask) that the user
 * holds a session with another merchant.
 */
describe('prompt=none across merchants', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('answers login_required with the same description as without any session', async () => {
    const admin = adminClient(t.baseUrl, t.adminToken);
    const a = await admin.createMerchant({ name: 'Shop A', redirect_uris: [REDIRECT_URI] });
    const b = await admin.createMerchant({ name: 'Shop B', redirect_uris: [REDIRECT_URI] });
    const configA = await discover(`${t.baseUrl}/oidc`, a.client_id, a.client_secret);
    const configB = await discover(`${t.baseUrl}/oidc`, b.client_id, b.client_secret);

    const withoutSession = new URL((await firstResponse(t.baseUrl, (await authorizationRequest(configB, { prompt: 'none' })).url)).location!).searchParams;

    const { browser } = await loginWithTestEid(t.baseUrl, (await authorizationRequest(configA)).url);
    const crossMerchant = await browser.get((await authorizationRequest(configB, { prompt: 'none' })).url.toString());
    expect(crossMerchant.status).toBe(303);
    const withOtherSession = new URL(crossMerchant.location!).searchParams;

    expect(withoutSession.get('error')).toBe('login_required');
    expect(withOtherSession.get('error')).toBe(withoutSession.get('error'));
    expect(withOtherSession.get('error_description')).toBe(withoutSession.get('error_description'));
    expect(withOtherSession.get('error_description')).not.toMatch(/merchant|session/i);
  });
});
