import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { provisioning, provisioningCodeOf } from '../support/ciba-flow.js';
import { describeWithChromium, launchChromium, type Chromium } from '../support/chromium.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { expectAxeClean, expectFocus, expectNoOverflow, LOCALES, openAt, SHOTS, VIEWPORTS } from '../support/page-checks.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The service's own pages outside a login, in Chromium. The base URL's page, as the broker pages are checked
 * (broker-pages.browser.e2e-spec.ts): three locales, a desktop and a 390-pixel phone, zero axe violations, the
 * heading focused, the operator's privacy notice linked. Swagger UI as an operator meets it: the Authorize dialog lists the admin token first and names every scheme for
 * who uses it, so a token pasted in the first field is the admin token (a verifier session field first made
 * operators paste their admin token there and get 401s). Swagger UI, not our document, decides the order shown.
 */
describeWithChromium('service pages in a real browser', () => {
  let t: TestApp;
  let browser: Chromium;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestApp({ env: { PRIVACY_NOTICE_URL: 'https://operator.example/privacy' } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the base URL in each locale at desktop and phone sizes: accessible, focused, links that answer', async () => {
    for (const locale of LOCALES)
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        const name = `landing-${locale}-${size}`;
        const page = await openAt(browser.context, viewport, `${t.baseUrl}/?ui_locales=${locale.replace('_', '-')}`);
        expect(await page.getAttribute('html', 'lang')).toBe(locale.replace('_', '-'));
        await expectFocus(page, name, 'h1');
        await expectAxeClean(page, name);
        await expectNoOverflow(page, name);
        expect(await page.locator('footer a[data-action="privacy-notice"]').getAttribute('href')).toBe('https://operator.example/privacy');
        await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
        if (locale === 'en_GB' && size === 'desktop') {
          await page.locator('a[data-link="documentation"]').click();
          await page.waitForURL(`${t.baseUrl}/docs`);
          expect(await page.locator('h2', { hasText: 'Start here' }).count()).toBe(1);
        }
        await page.close();
      }
  }, 120_000);

  it('styles the CIBA test page as the other pages, with Approve and Decline that do not look alike', async () => {
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Nordlys Bank', redirect_uris: [REDIRECT_URI] });
    const config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'browser-phone',
      binding_message: provisioning('browser-phone'),
    });
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const name = `ciba-test-en_GB-${size}`;
      const page = await openAt(browser.context, viewport, `${t.baseUrl}/ciba/test`);
      await expectAxeClean(page, `${name}-empty`);
      await page.getByLabel('App id').fill('browser-phone');
      await page.getByLabel('Provisioning code').fill(provisioningCodeOf(started));
      await page.getByRole('button', { name: 'Show open requests' }).click();
      await page.locator('form[data-request]').waitFor();
      await expectAxeClean(page, name);
      // Runs in the page; typed by hand, as the tests compile without the DOM's types.
      type Box = { getBoundingClientRect(): { width: number } };
      const look = (label: string) =>
        page.getByRole('button', { name: label }).evaluate((b) => {
          const style = (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string; color: string } }).getComputedStyle(b);
          const button = b as unknown as Box & { form: Box };
          return {
            background: style.backgroundColor,
            color: style.color,
            share: button.getBoundingClientRect().width / button.form.getBoundingClientRect().width,
          };
        });
      const [approve, decline] = [await look('Approve'), await look('Decline')];
      expect(approve.background).not.toBe(decline.background);
      expect(approve.color).not.toBe(decline.color);
      // The whole width of their form, as the other pages' buttons (large touch targets on a phone).
      expect([approve.share, decline.share]).toEqual([1, 1]);
      await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
      await page.close();
    }
  }, 60_000);

  it('opens Authorize on the admin token, then the merchant credentials, then the verifier app session', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${t.baseUrl}/admin/docs`);
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const headings = page.locator('.auth-container h4');
    await headings.first().waitFor();
    const shown = (await headings.allInnerTexts()).map((text) => text.trim().split(/\s+/)[0]);
    expect(shown).toEqual(['admin-api-token', 'merchant-client-credentials', 'verifier-app-session']);
    const first = (await page.locator('.auth-container').first().innerText()).replace(/\s+/g, ' ');
    expect(first).toContain('Operators: an admin API token');
    await page.close();
  }, 60_000);

  it('lays /docs and Swagger UI out for a phone: the device width, nothing cut off, a wide table scrolls in a box that shows it', async () => {
    const phone = await launchChromium({ phone: VIEWPORTS.phone });
    try {
      for (const path of ['/docs', '/admin/docs']) {
        const page = await phone.context.newPage();
        await page.goto(`${t.baseUrl}${path}`);
        if (path === '/admin/docs') await page.locator('.opblock').first().waitFor();
        // Without a viewport meta tag a phone lays the page out 980 pixels wide and shrinks it.
        expect([path, await page.evaluate('window.innerWidth')]).toEqual([path, VIEWPORTS.phone.width]);
        expect([path, await page.getAttribute('link[rel="icon"]', 'href')]).toEqual([path, '/its/assets/favicon.svg']);
        await expectNoOverflow(page, `${path} on a phone`);
        if (path === '/docs') {
          await expectAxeClean(page, 'docs-phone');
          // The face match table is wider than the phone: its box scrolls, says so, and can be scrolled from the keyboard.
          const box = page.locator('.table');
          type Box = { scrollWidth: number; clientWidth: number };
          const sizes = await box.evaluate((e) => [(e as unknown as Box).scrollWidth, (e as unknown as Box).clientWidth]);
          expect(sizes[0]).toBeGreaterThan(sizes[1]);
          expect(await box.getAttribute('tabindex')).toBe('0');
          const shadows = await box.evaluate(
            (e) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundImage: string } }).getComputedStyle(e).backgroundImage,
          );
          expect(shadows).toContain('gradient');
          expect(await page.isVisible('.scroll-hint')).toBe(true);
          await page.screenshot({ path: join(SHOTS, 'docs-en_GB-phone.png'), fullPage: true });
        }
        await page.close();
      }
    } finally {
      await phone.close();
    }
    const desktop = await openAt(browser.context, VIEWPORTS.desktop, `${t.baseUrl}/docs`);
    await expectNoOverflow(desktop, '/docs on a desktop');
    await expectAxeClean(desktop, 'docs-desktop');
    expect(await desktop.isVisible('.scroll-hint')).toBe(false);
    await desktop.screenshot({ path: join(SHOTS, 'docs-en_GB-desktop.png'), fullPage: true });
    await desktop.close();
  }, 90_000);
});
