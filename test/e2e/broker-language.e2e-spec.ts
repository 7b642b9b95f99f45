import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, MERCHANT_ORIGIN, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TestBrowser } from '../support/test-browser.js';

/**
 * The broker pages' language (issue 13): ui_locale, else ui_locales, else the browser's Accept-Language,
 * else the merchant's default, else en_GB; an unknown value never refuses the login; errors are a
 * sentence in that language with the code kept for support.
 */
describe('broker pages: language', () => {
  let t: TestApp;
  let shop: client.Configuration;
  let germanShop: client.Configuration;

  const open = async (config: client.Configuration, extra: Record<string, string>, headers: Record<string, string> = {}) => {
    const browser = new TestBrowser(t.baseUrl, headers);
    const page = await browser.follow(await browser.get((await authorizationRequest(config, extra)).url.toString()));
    return { browser, page };
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { PRIVACY_NOTICE_URL: 'https://operator.example/privacy' } });
    const admin = adminClient(t.baseUrl, t.adminToken);
    const m = await admin.createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI] });
    shop = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    const g = await admin.createMerchant({ name: 'Laden', redirect_uris: [REDIRECT_URI], default_ui_locale: 'de_DE' });
    germanShop = await discover(`${t.baseUrl}/oidc`, g.client_id, g.client_secret);
  });
  afterAll(() => t?.close());

  it('an unknown ui_locale falls back and still shows the page; Accept-Language nb-NO makes it Norwegian', async () => {
    const unknown = await open(shop, { ui_locale: 'xx_XX' }, { 'accept-language': 'nb-NO' });
    expect(unknown.page.status).toBe(200);
    expect(unknown.page.html).toContain('<html lang="nb-NO">');
    expect(unknown.page.html).toContain('Logg inn på Shop');
    // The operator's privacy notice (configuration) is linked in the page's language.
    expect(unknown.page.html).toContain('<a href="https://operator.example/privacy" data-action="privacy-notice">Personvernerklæring</a>');
    const browserOnly = await open(shop, {}, { 'accept-language': 'nb-NO,nb;q=0.9,en;q=0.5' });
    expect(browserOnly.page.html).toContain('<html lang="nb-NO">');
  });

  it('ui_locale wins over ui_locales, which wins over Accept-Language', async () => {
    expect((await open(shop, { ui_locale: 'fi_FI', ui_locales: 'de-DE' }, { 'accept-language': 'nb-NO' })).page.html).toContain('<html lang="fi-FI">');
    expect((await open(shop, { ui_locales: 'xx de-DE' }, { 'accept-language': 'nb-NO' })).page.html).toContain('<html lang="de-DE">');
  });

  it("uses the merchant's default when neither the request nor the browser names a usable language", async () => {
    expect((await open(germanShop, {}, { 'accept-language': 'ja' })).page.html).toContain('Bei Laden anmelden');
    expect((await open(germanShop, {}, { 'accept-language': 'sv-SE' })).page.html).toContain('<html lang="sv-SE">');
    const admin = adminClient(t.baseUrl, t.adminToken);
    const bad = await admin.call('POST', '/admin/v1/merchants', { name: 'X', redirect_uris: [REDIRECT_URI], default_ui_locale: 'xx_XX' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('default_ui_locale');
  });

  it("translates the test identities' labels and shows dates of birth in the locale's convention", async () => {
    const { browser, page } = await open(shop, { ui_locale: 'nb_NO' });
    const persons = await browser.submit(page, 'eid', 'test');
    expect(persons.html).toContain('Anna Maria Eriksson — Utopisk pass');
    expect(persons.html).toContain('Født 12. august 1974');
    const german = await open(shop, { ui_locale: 'de_DE' });
    const personen = await german.browser.submit(german.page, 'eid', 'test');
    expect(personen.html).toContain('Erika Mustermann — Deutscher Personalausweis');
    expect(personen.html).toContain('Geboren am 12. August 1964');
    expect(personen.html).not.toContain('German ID card');
  });

  it('shows a technical error as a translated sentence and keeps the code for support', async () => {
    const { browser, page } = await open(shop, {}, { 'accept-language': 'nb-NO' });
    const forged = await browser.submit(page, 'eid', 'test', { _csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect(forged.html).toContain('<html lang="nb-NO">');
    expect(forged.html).toContain('Skjemaet ble ikke sendt fra denne innloggingssiden');
    expect(forged.html).toContain('Feilkode: <code data-error="csrf_rejected">csrf_rejected</code>');
    expect(forged.html).toContain('Referanse for brukerstøtte');
    // The engine's own error page (a redirect URI it cannot trust) speaks the request's language too.
    const engine = await new TestBrowser(t.baseUrl).get(
      (await authorizationRequest(shop, { ui_locale: 'de_DE', redirect_uri: `${MERCHANT_ORIGIN}/elsewhere` })).url.toString(),
    );
    expect(engine.status).toBe(400);
    expect(engine.html).toContain('Der Dienst hat die Anmeldung auf eine Weise angefordert');
    expect(engine.html).toMatch(/Fehlercode: <code data-error="invalid_redirect_uri">/);
    // An expired sign-in (no page language known yet) speaks the browser's.
    const expired = await new TestBrowser(t.baseUrl, { 'accept-language': 'da' }).get(`${t.baseUrl}/its/interaction/nonexistent`);
    expect(expired.html).toContain('Login er udløbet eller allerede afsluttet.');
    expect(expired.html).toContain('interaction_expired');
  });
});
