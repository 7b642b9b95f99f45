import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { runVerification, VerifierClient } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { adminClient } from '../support/admin-client.js';
import { describeWithChromium, launchChromium, type Chromium } from '../support/chromium.js';
import { startLogoServer, type LogoServer } from '../support/logo-server.js';
import { authorizationRequest, discover } from '../support/oidc-flow.js';
import { expectAxeClean, expectFocus, expectLogo, expectNoOverflow, LOCALES, openAt, SHOTS, VIEWPORTS } from '../support/page-checks.js';
import { CREDENTIAL_OFFER_MESSAGES } from '../../src/i18n/credential-offer-messages.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { REDIRECT_URI, SHELDON, specimenDocumentDir } from '../support/verifier-flow.js';

const MERCHANT = 'Nordlys Bank';

/**
 * The credential issuer's pages a person sees, checked as the broker pages are (broker-pages.browser.e2e-spec.ts):
 * the offer after a passed document verification and the person's own revocation (its question and its answer),
 * in three locales on a desktop and a 390-pixel phone, in Chromium: zero axe violations, focus on the main action,
 * nothing loaded from elsewhere.
 */
describeWithChromium('credential issuer pages in a real browser', () => {
  let t: TestApp;
  let config: client.Configuration;
  let browser: Chromium;
  let documentDir: string;
  let logos: LogoServer;
  const foreign: string[] = [];

  const check = async (page: Page, name: string, main: string, { keep = true } = {}) => {
    await expectFocus(page, name, main);
    await expectAxeClean(page, name);
    await expectNoOverflow(page, name);
    if (keep) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestApp({ env: { PRIVACY_NOTICE_URL: 'https://operator.example/privacy' } });
    logos = await startLogoServer();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({
      name: MERCHANT,
      redirect_uris: [REDIRECT_URI],
      eid_schemes: ['document-verifier'],
      offer_credential: true,
      logo_uri: logos.url('/logo.png'),
    });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    documentDir = await specimenDocumentDir(t.baseUrl);
    browser = await launchChromium();
    await browser.context.route(`${REDIRECT_URI}**`, (r) => r.fulfill({ contentType: 'text/plain', body: 'the merchant' }));
    browser.context.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(t.baseUrl) && !url.startsWith('data:') && !url.startsWith(REDIRECT_URI)) foreign.push(url);
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await logos?.close();
    await t?.close();
  });

  for (const locale of LOCALES)
    for (const [viewport, size] of Object.entries(VIEWPORTS))
      it(`the offer and revocation pages in ${locale} on a ${viewport}: axe clean, focus on the main action, nothing external`, async () => {
        const at = (page: string) => `${page}-${locale}-${viewport}`;
        const lang = locale.replace('_', '-');
        // The merchant has one scheme, so the verifier page opens at once; the specimen phone passes, and the page's
        // script presses Continue when the session ends: the offer comes before the way back to the merchant.
        const page = await openAt(browser.context, size, (await authorizationRequest(config, { ui_locale: locale })).url.toString());
        const { client: sdk, qrToken } = VerifierClient.fromLink((await page.getAttribute('#handoff > a', 'href'))!);
        const outcome = await runVerification(sdk, qrToken, specimenPhone({ documentDir, selfie: SHELDON.center, left: SHELDON.left, right: SHELDON.right }));
        expect(outcome.authentication_result).toBe('pass');
        await page.waitForSelector('[data-tx-code]', { timeout: 20_000 });
        // The offer page came by the script's form POST, not page.goto: its logo may still be loading.
        await page.waitForLoadState('load');
        // Post/redirect/get: the offer has its own address, and a reload shows the same offer (no new transaction code).
        expect(new URL(page.url()).pathname).toMatch(/\/eid\/document-verifier\/offer$/);
        const txCode = await page.textContent('[data-tx-code]');
        await page.reload();
        expect(await page.textContent('[data-tx-code]')).toBe(txCode);
        // On a desktop the QR code's instruction is the first hand-off text: it stands on its own (no "Or …").
        if (viewport === 'desktop') expect(await page.textContent('#offer .on-desktop p')).toBe(CREDENTIAL_OFFER_MESSAGES[locale].qrInstruction);

        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        await expectLogo(page, at('credential-offer'), MERCHANT);
        // The wallet opens from the button on a phone; on a desktop the phone's wallet scans the QR code.
        expect(await page.isVisible('a[data-action="add-to-wallet"]')).toBe(viewport === 'phone');
        expect(await page.isVisible('.qr svg')).toBe(viewport === 'desktop');
        // The transaction code is shown wherever the offer is taken (OpenID4VCI 1.0 §4.1.1 tx_code: given out of band).
        expect(await page.isVisible('[data-tx-code]')).toBe(true);
        expect(await page.textContent('[data-tx-code]')).toMatch(/^\d{6}$/);
        await check(page, at('credential-offer'), viewport === 'phone' ? 'a[data-action="add-to-wallet"]' : 'form[data-action="continue"] button');

        // The revocation link given with the offer, opened as the person would (in the language of the offer).
        const revokeUrl = new URL((await page.getAttribute('a[data-action="revoke"]', 'href'))!);
        revokeUrl.searchParams.set('ui_locale', locale);
        const revoke = await openAt(browser.context, size, revokeUrl.toString());
        expect(await revoke.getAttribute('html', 'lang')).toBe(lang);
        await check(revoke, at('credential-revoke'), 'form[data-action="revoke"] button');
        // Confirmed: the answer page says it is done; nothing to press, so its heading has the focus.
        await revoke.click('form[data-action="revoke"] button');
        await revoke.waitForSelector('[data-revocation="done"]');
        expect(await revoke.getAttribute('html', 'lang')).toBe(lang);
        await check(revoke, at('credential-revoked'), 'h1', { keep: false });

        for (const p of [page, revoke]) await p.close();
        expect(foreign).toEqual([]);
      }, 120_000);
});
