import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { describeWithChromium, launchChromium, type Chromium } from '../support/chromium.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { writeOperatorLogo } from '../support/operator-logo.js';
import { expectAxeClean, expectFocus, LOCALES, openAt, SHOTS, VIEWPORTS } from '../support/page-checks.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** What the page's style resolves to, read in the page (the tests compile without the DOM's types). */
const colourOf = (selector: string, property: 'color' | 'backgroundColor') =>
  `(() => { const e = document.querySelector(${JSON.stringify(selector)}); return e ? getComputedStyle(e)[${JSON.stringify(property)}] : null; })()`;
const logoShown = `(() => { const i = document.querySelector('header.operator img.operator-logo'); return Boolean(i && i.complete && i.naturalWidth > 0); })()`;

/**
 * The operator's branding and the way back, in Chromium: a configured accent colour and logo on the base URL's
 * page, the scheme choice, the verifier's waiting page (its help for a person without the app open) and the test
 * identities, then back to the choice; three locales, a desktop and a 390-pixel phone, zero axe violations.
 */
describeWithChromium('operator branding and the way back in a real browser', () => {
  const ACCENT = 'rgb(122, 31, 92)'; // #7a1f5c
  let t: TestApp;
  let browser: Chromium;
  let config: client.Configuration;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestApp({
      env: {
        OPERATOR_NAME: 'Nordic ID Services AS',
        OPERATOR_LOGO_FILE: writeOperatorLogo().path,
        OPERATOR_ACCENT_COLOUR: '#7a1f5c',
        OPERATOR_CONTACT_URL: 'mailto:support@nordic-id.example',
        PRIVACY_NOTICE_URL: 'https://nordic-id.example/privacy',
        VERIFIER_APP_NAME: 'Kompis ID',
        VERIFIER_APP_STORE_URL: 'https://apps.example/kompis-id',
        VERIFIER_PLAY_STORE_URL: 'https://play.example/kompis-id',
      },
    });
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({
      name: 'Nordlys Bank',
      redirect_uris: [REDIRECT_URI],
      eid_schemes: ['test', 'document-verifier'],
    });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const locale of LOCALES)
    for (const [size, viewport] of Object.entries(VIEWPORTS))
      it(`in ${locale} on a ${size}: branded, accessible, and a way back from every scheme page`, async () => {
        const shot = (page: string) => join(SHOTS, `${page}-${locale}-${size}.png`);
        const landing = await openAt(browser.context, viewport, `${t.baseUrl}/?ui_locales=${locale.replace('_', '-')}`);
        expect(await landing.evaluate(logoShown)).toBe(true);
        expect(await landing.evaluate(colourOf('footer a[data-action="contact"]', 'color'))).toBe(ACCENT);
        await expectAxeClean(landing, `branded-landing-${locale}-${size}`);
        await landing.screenshot({ path: shot('branded-landing'), fullPage: true });
        await landing.close();

        const page = await openAt(browser.context, viewport, (await authorizationRequest(config, { ui_locale: locale, prompt: 'login' })).url.toString());
        await expectFocus(page, `branded-choice-${locale}-${size}`, 'button[data-eid="document-verifier"]');
        await expectAxeClean(page, `branded-choice-${locale}-${size}`);

        await page.click('button[data-eid="document-verifier"]');
        await page.waitForSelector('#continue');
        expect(await page.evaluate(colourOf('summary[data-action="no-app"]', 'color'))).toBe(ACCENT);
        await page.click('summary[data-action="no-app"]');
        expect(await page.isVisible('a[data-store="Google Play"]')).toBe(true);
        expect(await page.textContent('summary[data-action="no-app"]')).toContain('Kompis ID');
        await expectAxeClean(page, `way-back-verifier-${locale}-${size}`);
        await page.screenshot({ path: shot('way-back-verifier'), fullPage: true });

        await page.click('a[data-action="choose-another"]');
        await page.waitForSelector('button[data-eid="document-verifier"]');
        await expectFocus(page, `way-back-choice-${locale}-${size}`, 'button[data-eid="document-verifier"]');
        await page.click('button[data-eid="test"]');
        await page.waitForSelector('button[data-person="uto-passport"]');
        expect(await page.isVisible('a[data-action="choose-another"]')).toBe(true);
        await expectAxeClean(page, `way-back-persons-${locale}-${size}`);
        await page.screenshot({ path: shot('way-back-persons'), fullPage: true });

        // The sign-in goes on after the way back: the merchant gets its code.
        await page.click('button[data-person="uto-passport"]');
        await page.waitForURL((url) => url.href.startsWith(REDIRECT_URI));
        expect(new URL(page.url()).searchParams.get('code')).toBeTruthy();
        await page.close();
      }, 90_000);
});
