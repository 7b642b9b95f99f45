import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { type Page, TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Every broker page is one person's: neither a shared cache nor the browser may keep it (Cache-Control: no-store). */
describe('broker pages are never cached', () => {
  let t: TestApp;
  let authorizationUrl: URL;

  beforeAll(async () => {
    t = await startTestApp();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Cache shop', redirect_uris: [REDIRECT_URI], scope: 'openid profile' });
    authorizationUrl = (await authorizationRequest(await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret), { scope: 'openid profile' })).url;
  }, 120_000);
  afterAll(() => t?.close());

  it('sends no-store on every page of a login: the authorization endpoint, the scheme choice, the scheme pages, and their errors', async () => {
    const browser = new TestBrowser(t.baseUrl);
    const seen: Page[] = [];
    let page = await browser.get(authorizationUrl.toString());
    seen.push(page);
    while (page.location && new URL(page.location, page.url).origin === t.baseUrl)
      seen.push((page = await browser.get(new URL(page.location, page.url).toString())));
    expect(page.url).toMatch(/\/its\/interaction\/[^/]+$/);
    expect(page.html).toContain('data-eid="test"');
    seen.push(await browser.submit(page, 'eid', 'test'));
    const uid = /\/its\/interaction\/([^/?]+)/.exec(page.url)![1];
    seen.push(await browser.get(`${t.baseUrl}/its/interaction/${uid}/eid/no-such-scheme`));
    seen.push(await browser.get(`${t.baseUrl}/its/interaction/no-such-interaction`));
    seen.push(await browser.get(`${t.baseUrl}/its/eid/callback?state=unknown&code=x`));
    expect(seen.length).toBeGreaterThanOrEqual(6);
    for (const p of seen)
      expect({ url: p.url, status: p.status, cacheControl: p.cacheControl }).toEqual({ url: p.url, status: p.status, cacheControl: 'no-store' });
  });

  it('lets the shared assets be cached', async () => {
    const res = await fetch(`${t.baseUrl}/its/assets/favicon.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).not.toContain('no-store');
  });
});
