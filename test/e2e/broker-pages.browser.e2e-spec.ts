import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { VerifierClient } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { adminClient } from '../support/admin-client.js';
import { describeWithChromium, launchChromium, type Chromium } from '../support/chromium.js';
import { authorizationRequest, discover, MERCHANT_ORIGIN } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { REDIRECT_URI, SHELDON, specimenDocumentDir } from '../support/verifier-flow.js';
import { SAML_ACS } from '../saml/saml-flow.js';
import { startLogoServer, type LogoServer } from '../support/logo-server.js';
import {
  expectAxeClean,
  expectFocus,
  expectLogo,
  expectNoOverflow,
  LOCALES,
  openAt as openPageAt,
  SHOTS,
  VIEWPORTS,
  type Size,
} from '../support/page-checks.js';
import { ERROR_MESSAGES } from '../../src/i18n/error-messages.js';
import { WALLET_MESSAGES } from '../../src/schemes/eu-wallet/wallet-messages.js';
import { WAITING_MESSAGES } from '../../src/i18n/waiting-messages.js';

/**
 * Issue 13's acceptance: each broker page (choice, test identities, logout, verifier, error, SAML post) in
 * three locales on a desktop and a 390-pixel phone, in Chromium, with zero axe violations, no request
 * leaving our origin, focus on the main action; and the verifier page following the phone with scripts on
 * (the script) and off (the meta refresh).
 */
describeWithChromium('broker pages in a real browser', () => {
  let t: TestApp;
  let config: client.Configuration;
  let merchantId: string;
  let browser: Chromium;
  let documentDir: string;
  let logos: LogoServer;
  const foreign: string[] = [];

  /** Every page is checked the same way: the logo, focus on its main action, axe clean, then its picture (unless a minor page). */
  const check = async (page: Page, name: string, main: string, { keep = true } = {}) => {
    if (keep) await expectLogo(page, name, 'Nordlys Shop');
    await expectFocus(page, name, main);
    await expectAxeClean(page, name);
    await expectNoOverflow(page, name);
    if (keep) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };
  const openAt = (size: Size, url: string) => openPageAt(browser.context, size, url);
  const authorize = async (extra: Record<string, string>) => (await authorizationRequest(config, extra)).url.toString();

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestApp({ env: { PRIVACY_NOTICE_URL: 'https://operator.example/privacy' } });
    logos = await startLogoServer();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({
      name: 'Nordlys Shop',
      redirect_uris: [REDIRECT_URI],
      logo_uri: logos.url('/logo.png'),
      saml: { entity_id: 'https://nordlys.example/shibboleth', assertion_consumer_url: SAML_ACS },
    });
    merchantId = m.client_id;
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    documentDir = await specimenDocumentDir(t.baseUrl);
    browser = await launchChromium();
    // The merchant's callback is not listening: answered here, so a finished sign-in lands on a page of its own.
    await browser.context.route(`${REDIRECT_URI}**`, (r) => r.fulfill({ contentType: 'text/plain', body: 'the merchant' }));
    browser.context.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(t.baseUrl) && !url.startsWith('data:') && !url.startsWith(REDIRECT_URI)) foreign.push(url);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await logos?.close();
    await t?.close();
  });

  for (const locale of LOCALES)
    for (const [viewport, size] of Object.entries(VIEWPORTS))
      it(`every page in ${locale} on a ${viewport}: axe clean, focus on the main action, nothing external`, async () => {
        const at = (page: string) => `${page}-${locale}-${viewport}`;
        const page = await openAt(size, await authorize({ ui_locale: locale }));
        expect(await page.getAttribute('html', 'lang')).toBe(locale.replace('_', '-'));
        expect(await page.isVisible('footer a[data-action="privacy-notice"]')).toBe(true);
        await check(page, at('choice'), 'button[data-eid="document-verifier"]');

        await page.click('button[data-eid="test"]');
        await page.waitForSelector('button[data-person="uto-passport"]');
        await check(page, at('persons'), 'button[data-person="uto-passport"]');

        // Signed in, then the global logout asks.
        await page.click('button[data-person="uto-passport"]');
        await page.waitForURL((url) => url.href.startsWith(REDIRECT_URI));
        await page.goto(`${t.baseUrl}/oidc/session/end?${new URLSearchParams({ client_id: merchantId, ui_locales: locale.replace('_', '-') })}`);
        await page.waitForSelector('form[data-logout="everywhere"]');
        await check(page, at('logout'), 'form[data-logout="everywhere"] button');
        // Signed out (so the next requests ask again): the closing page's heading has the focus, nothing to press.
        await page.click('form[data-logout="everywhere"] button');
        await page.waitForSelector('[data-logout="done"]');
        await check(page, at('logout-done'), 'h1', { keep: false });

        const verifier = await openAt(size, await authorize({ ui_locale: locale, login_hint: 'eid:document-verifier' }));
        // The hand-off: the app button on a phone (the main action there), the QR code on a desktop (Continue).
        expect(await verifier.isVisible('#handoff > a')).toBe(viewport === 'phone');
        expect(await verifier.isVisible('.qr svg')).toBe(viewport === 'desktop');
        // On the phone the person opened the app: "phone connected" is no step there; the help for a person without it.
        expect(await verifier.isVisible('li[data-for="phone_connected"]')).toBe(viewport === 'desktop');
        expect(await verifier.isVisible('summary[data-action="no-app"]')).toBe(true);
        expect(await verifier.locator('li[aria-current]').count()).toBe(0);
        await check(verifier, at('verifier'), viewport === 'phone' ? 'a[data-action="open-app"]' : '#continue button');
        // The card keeps a margin on the phone.
        if (viewport === 'phone') expect((await verifier.locator('main').boundingBox())!.x).toBeGreaterThanOrEqual(12);

        // The EU wallet's waiting page: its own hand-off texts, its two steps, the second link on a phone.
        const wallet = await openAt(size, await authorize({ ui_locale: locale, login_hint: 'eid:eu-wallet' }));
        expect(await wallet.isVisible('a[data-action="open-app-alternate"]')).toBe(viewport === 'phone');
        expect(await wallet.locator('#progress li').count()).toBe(2);
        // The hint under Continue names what the page waits for: the wallet here, the app on the verifier's page.
        expect(await wallet.textContent('#continue-hint')).toBe(WALLET_MESSAGES[locale].continueHint);
        expect(await verifier.textContent('#continue-hint')).toBe(WAITING_MESSAGES[locale].continueHint);
        await check(wallet, at('wallet'), viewport === 'phone' ? 'a[data-action="open-app"]' : '#continue button');
        // A stranger who read the QR code's request posts a wallet error with its state: the page shows it by itself
        // (its script reloads on the new notice), keeps the hand-off and offers a fresh request; nothing ends.
        const request = decodeJwt(await (await fetch(new URL(await wallet.inputValue('#app-link')).searchParams.get('request_uri')!)).text());
        const declined = await fetch(request.response_uri as string, {
          method: 'POST',
          body: new URLSearchParams({ error: 'access_denied', state: request.state as string }),
        });
        expect(declined.status).toBe(200);
        await wallet.waitForSelector('#notice', { timeout: 10_000 });
        expect([await wallet.isVisible('form[data-action="retry"] button'), await wallet.isVisible('#handoff')]).toEqual([true, true]);
        expect(new URL(wallet.url()).pathname).toMatch(/\/eid\/eu-wallet$/);
        await check(wallet, at('wallet-notice'), viewport === 'phone' ? 'a[data-action="open-app"]' : '#continue button', { keep: false });

        const error = await openAt(size, await authorize({ ui_locale: locale, redirect_uri: `${MERCHANT_ORIGIN}/elsewhere` }));
        expect(await error.textContent('[data-error]')).toBe('invalid_redirect_uri');
        await check(error, at('error'), 'h1');
        // The way out when the service is out of reach: this service's own page (no operator contact configured here).
        expect(await error.textContent('a[data-action="about-service"]')).toBe(ERROR_MESSAGES[locale].aboutService);
        expect(await error.getAttribute('a[data-action="about-service"]', 'href')).toBe('/');

        // The SAML answer page, held still: its auto-submit script is answered empty so the page can be checked.
        const saml = await browser.context.newPage();
        await saml.setViewportSize(size);
        await saml.route('**/saml/assets/auto-post.js', (r) => r.fulfill({ contentType: 'application/javascript', body: '' }));
        await saml.goto(`${t.baseUrl}/its/index.html?${new URLSearchParams({ mid: merchantId, ui_locale: locale })}`);
        await saml.click('button[data-eid="test"]');
        await saml.click('button[data-person="uto-passport"]');
        await saml.waitForSelector('form[data-saml-post="auto"]');
        expect(await saml.getAttribute('html', 'lang')).toBe(locale.replace('_', '-'));
        await check(saml, at('saml-post'), 'form[data-saml-post="auto"] button');

        for (const p of [page, verifier, wallet, error, saml]) await p.close();
        expect(foreign).toEqual([]);
        // Fetched once, when the merchant was registered; no page asked the merchant's server for it.
        expect(logos.hits.get('/logo.png')).toBe(1);
      }, 120_000);

  it('the verifier page shows "document read" while open, driven by the status route (script), then ends by itself', async () => {
    const page = await openAt(VIEWPORTS.desktop, await authorize({ ui_locale: 'en_GB', login_hint: 'eid:document-verifier' }));
    await page.evaluate(() => ((globalThis as Record<string, unknown>).stillTheSamePage = true));
    const { client: sdk, qrToken } = VerifierClient.fromLink((await page.getAttribute('#handoff > a', 'href'))!);
    await sdk.open(qrToken);
    await page.waitForSelector('#progress[data-step="phone_connected"]');
    expect(await page.isVisible('#handoff')).toBe(false);
    const phone = specimenPhone({ documentDir, selfie: SHELDON.center, right: SHELDON.right, left: SHELDON.left });
    await sdk.uploadChip(await phone.readChip(await sdk.activeAuthChallenge()));
    await page.waitForSelector('li[data-for="document_read"].done');
    expect(await page.textContent('li[aria-current="step"]')).toContain('Face checked');
    // "(completed)" is for screen readers only: in the text, out of sight (the tick marks a done step).
    expect(await page.textContent('li[data-for="document_read"]')).toContain('(completed)');
    const state = (await page.locator('li[data-for="document_read"] .state').boundingBox())!;
    expect(state.width * state.height).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => (globalThis as Record<string, unknown>).stillTheSamePage)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'progress-en_GB-desktop.png'), fullPage: true });
    // The phone gives up: the script presses Continue and the merchant hears access_denied.
    const toMerchant = new Promise<string>((resolve) => page.on('request', (r) => r.url().startsWith(REDIRECT_URI) && resolve(r.url())));
    await sdk.cancel();
    expect(new URL(await toMerchant).searchParams.get('error')).toBe('access_denied');
    expect(foreign).toEqual([]);
  });

  it('without scripts the page refreshes itself (meta refresh) and shows "document read"', async () => {
    const noScript = await launchChromium({ javaScriptEnabled: false });
    try {
      const page = await noScript.context.newPage();
      await page.goto((await authorizationRequest(config, { ui_locale: 'nb_NO', login_hint: 'eid:document-verifier' })).url.toString());
      const { client: sdk, qrToken } = VerifierClient.fromLink((await page.getAttribute('#handoff > a', 'href'))!);
      await sdk.open(qrToken);
      await page.waitForSelector('#progress[data-step="phone_connected"]', { timeout: 15_000 });
      const phone = specimenPhone({ documentDir, selfie: SHELDON.center, right: SHELDON.right, left: SHELDON.left });
      await sdk.uploadChip(await phone.readChip(await sdk.activeAuthChallenge()));
      await page.waitForSelector('#progress[data-step="document_read"]', { timeout: 15_000 });
      expect(await page.textContent('li[data-for="document_read"].done')).toContain('Dokumentet er lest');
      await sdk.cancel();
    } finally {
      await noScript.close();
    }
  });
});
