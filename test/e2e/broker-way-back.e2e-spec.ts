import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, finishTestEidLogin, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TestBrowser, type Page } from '../support/test-browser.js';

/**
 * The way back: every scheme page offers "choose another way" while the merchant allows more than one scheme;
 * it leads to the choice of schemes (also when the request preselected the scheme) and the sign-in goes on
 * there. Cancel stays what it was: the end of the sign-in at the merchant.
 */
describe('broker pages: the way back to the choice of schemes', () => {
  let t: TestApp;
  let everyScheme: client.Configuration;
  let onlyTest: client.Configuration;

  const wayBackOf = (page: Page): string | undefined => {
    const href = /<p class="way-back"><a href="([^"]+)" data-action="choose-another">([^<]+)<\/a>/.exec(page.html);
    return href ? new URL(href[1].replace(/&amp;/g, '&'), page.url).toString() : undefined;
  };
  const open = async (config: client.Configuration, extra: Record<string, string> = {}) => {
    const request = await authorizationRequest(config, extra);
    const browser = new TestBrowser(t.baseUrl);
    return { request, browser, page: await browser.follow(await browser.get(request.url.toString())) };
  };

  beforeAll(async () => {
    t = await startTestApp();
    const admin = adminClient(t.baseUrl, t.adminToken);
    const every = await admin.createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['test', 'document-verifier'] });
    const one = await admin.createMerchant({ name: 'One-way shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['test'] });
    everyScheme = await discover(`${t.baseUrl}/oidc`, every.client_id, every.client_secret);
    onlyTest = await discover(`${t.baseUrl}/oidc`, one.client_id, one.client_secret);
  });
  afterAll(() => t?.close());

  it('leads from the verifier page back to the choice, where another scheme finishes the sign-in', async () => {
    const { request, browser, page } = await open(everyScheme);
    const verifierPage = await browser.submit(page, 'eid', 'document-verifier');
    expect(verifierPage.html).toMatch(/data-action="continue"/);
    const back = wayBackOf(verifierPage);
    expect(back).toBeDefined();
    expect(verifierPage.html).toContain('Choose another way to identify yourself');

    const choice = await browser.get(back!);
    expect(choice.status).toBe(200);
    expect(choice.html).toMatch(/data-eid="test"/);
    expect(choice.html).toMatch(/data-eid="document-verifier"/);
    const persons = await browser.submit(choice, 'eid', 'test');
    expect(wayBackOf(persons)).toBe(back);
    const tokens = await finishTestEidLogin(browser, persons, everyScheme, request);
    expect(tokens.claims()?.eid_scheme).toBe('test');
  });

  it('shows the choice even when the request preselected the scheme (login_hint)', async () => {
    const { browser, page } = await open(everyScheme, { login_hint: 'eid:document-verifier' });
    expect(page.html).toMatch(/data-action="continue"/);
    const choice = await browser.get(wayBackOf(page)!);
    expect(choice.html).toMatch(/data-eid="test"/);
    expect(choice.html).not.toMatch(/data-action="continue"/);
    // the choice page itself is not a scheme's page: nothing to go back to
    expect(wayBackOf(choice)).toBeUndefined();
  });

  it('speaks the page language', async () => {
    const { browser, page } = await open(everyScheme, { ui_locales: 'nb-NO' });
    const persons = await browser.submit(page, 'eid', 'test');
    expect(persons.html).toContain('Velg en annen måte å identifisere deg på');
  });

  it('is absent while the merchant allows only one scheme', async () => {
    const { page } = await open(onlyTest);
    expect(page.html).toMatch(/data-person="uto-passport"/);
    expect(wayBackOf(page)).toBeUndefined();
    expect(page.html).toMatch(/data-action="cancel"/);
  });

  it('refuses a way back to a sign-in that is not in progress, with a page, not a 5xx', async () => {
    const { browser, page } = await open(everyScheme);
    const persons = await browser.submit(page, 'eid', 'test');
    const back = wayBackOf(persons)!;
    await browser.follow(await browser.submit(persons, 'person', 'uto-passport'));
    const after = await browser.get(back);
    expect(after.status).toBeGreaterThanOrEqual(400);
    expect(after.status).toBeLessThan(500);
    expect(after.html).not.toMatch(/data-eid="test"/);
    const stranger = await new TestBrowser(t.baseUrl).get(back);
    expect(stranger.status).toBeGreaterThanOrEqual(400);
    expect(stranger.status).toBeLessThan(500);
  });

  it('leaves Cancel as it was: access_denied at the merchant', async () => {
    const { browser, page } = await open(everyScheme);
    const persons = await browser.submit(page, 'eid', 'test');
    const cancelled = await browser.submit(persons, 'action', 'cancel');
    const at = new URL(cancelled.location ?? cancelled.url);
    expect(at.searchParams.get('error')).toBe('access_denied');
  });
});
