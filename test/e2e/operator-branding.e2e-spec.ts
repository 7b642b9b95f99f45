import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { writeOperatorLogo } from '../support/operator-logo.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TestBrowser } from '../support/test-browser.js';
import { UI_LOCALES } from '../../src/i18n/locales.js';
import { ERROR_MESSAGES } from '../../src/i18n/error-messages.js';

/**
 * The operator's branding (OPERATOR_NAME, OPERATOR_LOGO_FILE, OPERATOR_ACCENT_COLOUR, OPERATOR_CONTACT_URL) on every
 * kind of page: the frame carries it, the merchant's logo stays in the card, the CSP does not move.
 */
describe('operator branding on every page', () => {
  const logo = writeOperatorLogo();
  let branded: TestApp;
  let plain: TestApp;
  let config: client.Configuration;

  beforeAll(async () => {
    branded = await startTestApp({
      env: {
        OPERATOR_NAME: 'Nordic ID Services AS',
        OPERATOR_LOGO_FILE: logo.path,
        OPERATOR_ACCENT_COLOUR: '#7A1F5C',
        OPERATOR_CONTACT_URL: 'mailto:support@nordic-id.example',
        PRIVACY_NOTICE_URL: 'https://nordic-id.example/privacy',
      },
    });
    plain = await startTestApp();
    const m = await adminClient(branded.baseUrl, branded.adminToken).createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI] });
    config = await discover(`${branded.baseUrl}/oidc`, m.client_id, m.client_secret);
  });
  afterAll(async () => {
    await branded?.close();
    await plain?.close();
  });

  const pagesOf = async (t: TestApp, authorizationUrl?: string) => {
    const browser = new TestBrowser(t.baseUrl);
    const pages: Record<string, { html: string; csp: string | null }> = {};
    const take = async (name: string, url: string) => {
      const res = await fetch(url, { headers: { accept: 'text/html', 'accept-language': 'nb-NO' } });
      pages[name] = { html: await res.text(), csp: res.headers.get('content-security-policy') };
    };
    await take('landing', `${t.baseUrl}/`);
    await take('error', `${t.baseUrl}/its/interaction/no-such-interaction`);
    await take('ciba test page', `${t.baseUrl}/ciba/test`);
    if (authorizationUrl) {
      const choice = await browser.follow(await browser.get(authorizationUrl));
      pages.choice = { html: choice.html, csp: null };
    }
    return pages;
  };

  it('frames every page with the logo, the accent colour and a footer of name, contact and privacy notice', async () => {
    const pages = await pagesOf(branded, (await authorizationRequest(config, { ui_locale: 'nb_NO' })).url.toString());
    const logoSrc = /<header class="operator"><img class="operator-logo" src="([^"]+)" alt="Nordic ID Services AS"><\/header><main>/;
    const footer =
      /<footer><span data-operator>Nordic ID Services AS<\/span><a href="mailto:support@nordic-id\.example" data-action="contact">[^<]+<\/a><a href="https:\/\/nordic-id\.example\/privacy" data-action="privacy-notice">[^<]+<\/a><\/footer>/;
    // In the page's language (the CIBA test page, a developer's tool, speaks English only).
    expect(pages.landing.html).toContain('data-action="contact">Kontakt</a>');
    expect(pages.choice.html).toContain('data-action="privacy-notice">Personvernerklæring</a>');
    for (const [name, { html, csp }] of Object.entries(pages)) {
      expect([name, logoSrc.test(html)]).toEqual([name, true]);
      expect([name, html]).toEqual([name, expect.stringMatching(footer)]);
      expect([name, html.includes('#7a1f5c'), html.includes('#2848b8')]).toEqual([name, true, false]);
      if (csp) expect(csp).toContain("img-src 'self' data:");
    }
    const src = logoSrc.exec(pages.landing.html)![1];
    const served = await fetch(`${branded.baseUrl}${src}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await served.arrayBuffer()).equals(logo.bytes)).toBe(true);
  });

  it('serves the logo only at its current address', async () => {
    for (const path of ['/its/assets/operator-logo/0000000000000000', '/its/assets/operator-logo/..%2F..%2Fetc%2Fpasswd']) {
      const res = await fetch(`${branded.baseUrl}${path}`);
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect((await fetch(`${plain.baseUrl}/its/assets/operator-logo/0000000000000000`)).status).toBe(404);
  });

  it('leaves an unbranded service as it was: no header, no footer, the default accent', async () => {
    for (const [name, { html }] of Object.entries(await pagesOf(plain))) {
      expect([name, html.includes('<header class="operator">'), html.includes('<footer>'), html.includes('#2848b8')]).toEqual([name, false, false, true]);
    }
  });

  it("gives an unknown client_id's error page a way out in every locale: the operator's contact, else the base URL's page", async () => {
    const unknownClient = (t: TestApp, locale: string) =>
      `${t.baseUrl}/its/index.html?${new URLSearchParams({ client_id: 'no-such-merchant', response_type: 'code', scope: 'openid', redirect_uri: REDIRECT_URI, ui_locale: locale })}`;
    for (const locale of UI_LOCALES) {
      const texts = ERROR_MESSAGES[locale];
      const withContact = await fetch(unknownClient(branded, locale), { headers: { accept: 'text/html' } });
      expect(withContact.status).toBe(400);
      const contactPage = await withContact.text();
      expect([locale, contactPage]).toEqual([
        locale,
        expect.stringContaining(`<a href="mailto:support@nordic-id.example" data-action="get-help">${texts.getHelp}</a>`),
      ]);
      const without = await fetch(unknownClient(plain, locale), { headers: { accept: 'text/html' } });
      const plainPage = await without.text();
      expect([locale, plainPage]).toEqual([locale, expect.stringContaining(`<a href="/" data-action="about-service">${texts.aboutService}</a>`)]);
      expect(plainPage).not.toContain('data-action="get-help"');
    }
    // The way out leads to a page that answers, in the same language.
    expect((await fetch(`${plain.baseUrl}/`, { headers: { accept: 'text/html' } })).status).toBe(200);
  });
});
