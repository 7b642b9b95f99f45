import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { VerifierClient } from '../../libs/verifier-sdk/src/index.js';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { adminClient } from '../support/admin-client.js';
import { describeWithChromium, launchChromium, type Chromium } from '../support/chromium.js';
import { authorizationRequest, discover } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { REDIRECT_URI, SHELDON, specimenDocumentDir } from '../support/verifier-flow.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const LOCALES = ['en_GB', 'nb_NO', 'de_DE'] as const;
const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
/** A handful of screenshots for the README; the rest of the walk is checked, not kept. */
const KEPT = new Set(['choice-en_GB-desktop', 'persons-nb_NO-phone', 'verifier-de_DE-desktop', 'verifier-nb_NO-phone', 'error-de_DE-phone', 'progress-en_GB-desktop']);
/** `SAVE_SCREENSHOTS=1` refreshes docs/screenshots; otherwise they go to a temporary folder (a test run leaves the tree clean). */
const SHOTS = process.env.SAVE_SCREENSHOTS === '1' ? join(import.meta.dirname, '../../docs/screenshots') : mkdtempSync(join(tmpdir(), 'screens-'));

/**
 * Issue 13's acceptance: each broker page in three locales on a desktop and a 390-pixel phone, in Chromium,
 * with zero axe violations, no request leaving our origin, focus on the main action; and the verifier page
 * following the phone with scripts on (the script) and off (the meta refresh).
 */
describeWithChromium('broker pages in a real browser', () => {
  let t: TestApp;
  let config: client.Configuration;
  let browser: Chromium;
  let documentDir: string;
  const foreign: string[] = [];

  const axe = async (page: Page, name: string) => {
    await page.evaluate(AXE_SOURCE);
    const result = await page.evaluate(() =>
      (globalThis as unknown as { axe: { run(o: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe.run({
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      }),
    );
    expect({ page: name, violations: result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`) }).toEqual({ page: name, violations: [] });
  };
  const shot = async (page: Page, name: string) => {
    if (KEPT.has(name)) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };
  const open = async (extra: Record<string, string>) => {
    const page = await browser.context.newPage();
    await page.goto((await authorizationRequest(config, extra)).url.toString());
    return page;
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestApp({ env: { PRIVACY_NOTICE_URL: 'https://operator.example/privacy' } });
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Nordlys Shop', redirect_uris: [REDIRECT_URI] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    documentDir = await specimenDocumentDir(t.baseUrl);
    browser = await launchChromium();
    browser.context.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(t.baseUrl) && !url.startsWith('data:') && !url.startsWith(REDIRECT_URI)) foreign.push(url);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const locale of LOCALES)
    for (const [viewport, size] of Object.entries(VIEWPORTS))
      it(`every page in ${locale} on a ${viewport}: axe clean, focus on the main action, nothing external`, async () => {
        const page = await open({ ui_locale: locale });
        await page.setViewportSize(size);
        expect(await page.getAttribute('html', 'lang')).toBe(locale.replace('_', '-'));
        expect(await page.evaluate("document.activeElement.getAttribute('data-eid')")).toBe('document-verifier');
        expect(await page.isVisible('footer a[data-action="privacy-notice"]')).toBe(true);
        await axe(page, `choice ${locale} ${viewport}`);
        await shot(page, `choice-${locale}-${viewport}`);

        await page.click('button[data-eid="test"]');
        await page.waitForSelector('button[data-person="uto-passport"]');
        expect(await page.evaluate("document.activeElement.getAttribute('data-person')")).toBe('uto-passport');
        await axe(page, `persons ${locale} ${viewport}`);
        await shot(page, `persons-${locale}-${viewport}`);

        const verifier = await open({ ui_locale: locale, login_hint: 'eid:document-verifier' });
        await verifier.setViewportSize(size);
        // The hand-off: the app button on a phone, the QR code on a desktop.
        expect(await verifier.isVisible('#handoff > a')).toBe(viewport === 'phone');
        expect(await verifier.isVisible('.qr svg')).toBe(viewport === 'desktop');
        await axe(verifier, `verifier ${locale} ${viewport}`);
        await shot(verifier, `verifier-${locale}-${viewport}`);
        // The card keeps a margin on the phone.
        if (viewport === 'phone') expect((await verifier.locator('main').boundingBox())!.x).toBeGreaterThanOrEqual(12);

        const error = await open({ ui_locale: locale, redirect_uri: 'http://localhost:8080/elsewhere' });
        await error.setViewportSize(size);
        expect(await error.textContent('[data-error]')).toBe('invalid_redirect_uri');
        await axe(error, `error ${locale} ${viewport}`);
        await shot(error, `error-${locale}-${viewport}`);

        for (const p of [page, verifier, error]) await p.close();
        expect(foreign).toEqual([]);
      });

  it('the verifier page shows "document read" while open, driven by the status route (script), then ends by itself', async () => {
    const page = await open({ ui_locale: 'en_GB', login_hint: 'eid:document-verifier' });
    await page.evaluate(() => ((globalThis as Record<string, unknown>).stillTheSamePage = true));
    const { client: sdk, qrToken } = VerifierClient.fromLink((await page.getAttribute('#handoff > a', 'href'))!);
    await sdk.open(qrToken);
    await page.waitForSelector('#progress[data-step="phone_connected"]');
    expect(await page.isVisible('#handoff')).toBe(false);
    const phone = specimenPhone({ documentDir, selfie: SHELDON.center, right: SHELDON.right, left: SHELDON.left });
    await sdk.uploadChip(await phone.readChip(await sdk.activeAuthChallenge()));
    await page.waitForSelector('li[data-for="document_read"].done');
    expect(await page.textContent('li[aria-current="step"]')).toContain('Face checked');
    expect(await page.evaluate(() => (globalThis as Record<string, unknown>).stillTheSamePage)).toBe(true);
    await shot(page, 'progress-en_GB-desktop');
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
