import * as client from 'openid-client';
import { VerifierClient } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TestBrowser, type Page } from '../support/test-browser.js';
import { REDIRECT_URI, SHELDON, specimenDocumentDir } from '../support/verifier-flow.js';

/**
 * The verifier's waiting page follows the phone (issue 13): the status route names the step, never data
 * about the person; without scripts the page refreshes itself (meta refresh) and shows the step reached.
 * The scripted side runs in a real browser in broker-pages.browser.e2e-spec.ts.
 */
describe('broker pages: live progress of the document verifier', () => {
  let t: TestApp;
  let config: client.Configuration;
  let documentDir: string;

  const attr = (html: string, re: RegExp) => re.exec(html)?.[1]?.replace(/&amp;/g, '&');
  /** What a browser without scripts does: follow the meta refresh of the page. */
  const refresh = async (browser: TestBrowser, page: Page): Promise<Page> => {
    const target = attr(page.html, /<noscript><meta http-equiv="refresh" content="\d+;url=([^"]+)"><\/noscript>/);
    if (!target) throw new Error(`no meta refresh on ${page.url}`);
    return browser.get(new URL(target, page.url).toString());
  };
  const statusOf = async (page: Page) => (await fetch(`${t.baseUrl}${attr(page.html, /data-status-url="([^"]+)"/)}`)).json();

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        VERIFIER_APP_NAME: 'Kompis ID',
        VERIFIER_APP_STORE_URL: 'https://apps.example/kompis-id',
        VERIFIER_PLAY_STORE_URL: 'https://play.example/store/apps/details?id=example.kompis',
      },
    });
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
    documentDir = await specimenDocumentDir(t.baseUrl);
  });
  afterAll(() => t?.close());

  it('shows the steps as the phone reaches them, through the status route and, without scripts, the meta refresh', async () => {
    const browser = new TestBrowser(t.baseUrl);
    const page = await browser.follow(await browser.get((await authorizationRequest(config, { ui_locale: 'en_GB' })).url.toString()));
    expect(page.html).toContain('data-step="waiting"');
    // Before the phone has done anything no step is under way: all pending, none current.
    expect(page.html).not.toMatch(/<li[^>]*aria-current/);
    expect(page.html).toContain('<li data-for="phone_connected" class="on-desktop">Phone connected');
    expect(page.html).toMatch(/<script src="\/its\/assets\/wait-for-phone\.js"><\/script>/);
    expect(page.html).not.toMatch(/<script>|<script [^>]*>[^<]/);
    const { client: sdk, qrToken } = VerifierClient.fromLink(attr(page.html, /<a href="([^"]+)" data-action="open-app"[^>]*>/)!);
    // The refreshed page shows the same code: a refresh never spoils a scan in progress.
    expect(await refresh(browser, page).then((p) => p.html)).toContain(`session=${qrToken}`);

    await sdk.open(qrToken);
    expect(await statusOf(page)).toEqual({ state: 'opened', step: 'phone_connected', done: false });
    const connected = await refresh(browser, page);
    expect(connected.html).toContain('data-step="phone_connected"');
    expect(connected.html).toContain('<li data-for="phone_connected" class="done on-desktop">Phone connected');
    expect(connected.html).not.toContain('data-action="open-app"');
    expect(connected.html).toContain('<li data-for="document_read" aria-current="step">Document read');

    const phone = specimenPhone({ documentDir, selfie: SHELDON.center, right: SHELDON.right, left: SHELDON.left });
    await sdk.uploadChip(await phone.readChip(await sdk.activeAuthChallenge()));
    const status = await statusOf(page);
    expect(status).toEqual({ state: 'chip_received', step: 'document_read', done: false });
    const read = await refresh(browser, connected);
    expect(read.html).toContain('data-step="document_read"');
    expect(read.html).toContain('<li data-for="document_read" class="done">Document read');
    expect(read.html).toContain('<li data-for="face_checked" aria-current="step">Face checked');

    // The phone gives up: the no-script refresh ends the sign-in as Continue would.
    await sdk.cancel();
    const ended = await browser.follow(await refresh(browser, read));
    expect(new URL(ended.location!).searchParams.get('error')).toBe('access_denied');
  });

  it('names the app from the configuration, with help and store links for a person without it', async () => {
    const open = async (locale: string) => {
      const browser = new TestBrowser(t.baseUrl);
      return browser.follow(await browser.get((await authorizationRequest(config, { ui_locale: locale })).url.toString()));
    };
    const page = await open('en_GB');
    expect(page.html).toMatch(/<a href="brokerverify-test:[^"]+" data-action="open-app" autofocus>Open Kompis ID<\/a>/);
    expect(page.html).toContain('Scan this QR code with Kompis ID on your phone.');
    expect(page.html).toContain('<summary data-action="no-app">I don&#39;t have Kompis ID</summary>');
    expect(page.html).toContain('<a href="https://apps.example/kompis-id" rel="noopener" data-store="App Store">App Store</a>');
    expect(page.html).toContain('<a href="https://play.example/store/apps/details?id=example.kompis" rel="noopener" data-store="Google Play">Google Play</a>');
    expect(page.html).not.toMatch(/\{app\}|ID app/);
    // German: the configured product name, never a generic "Ausweis-App" (the government's app is the AusweisApp).
    const german = await open('de_DE');
    expect(german.html).toContain('Kompis ID öffnen');
    expect(german.html).toContain('Ich habe Kompis ID nicht');
    expect(german.html).not.toMatch(/Ausweis-?App/i);
  });

  it('the script and the favicon are files of our own origin', async () => {
    const script = await fetch(`${t.baseUrl}/its/assets/wait-for-phone.js`);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(await script.text()).not.toMatch(/https?:\/\//);
    const icon = await fetch(`${t.baseUrl}/its/assets/favicon.svg`);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
  });
});
