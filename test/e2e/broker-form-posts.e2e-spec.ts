import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as client from 'openid-client';
import { runVerification, VerifierClient } from '@identity-broker/verifier-sdk';
import { specimenPhone } from '../../scripts/test-app/specimen-phone.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { parseForms, TestBrowser, type Page } from '../support/test-browser.js';
import { SHELDON, specimenDocumentDir } from '../support/verifier-flow.js';

const ROOT = join(import.meta.dirname, '../..');
const LOGGED_OUT = 'http://localhost/logged-out';

/** Every `<form method="post">` in the page templates under src, by file and the data attribute that names it. */
function formsInTemplates(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
        for (const m of readFileSync(path, 'utf8').matchAll(/<form\b[^>]*method="post"[^>]*>/g)) {
          // A form's name: its data attribute (its value when fixed), the choices' generated ones, or none.
          const [, name, value] = /data-([a-z-]+)="([^"]*)"/.exec(m[0]) ?? (m[0].includes('dataAttributes(') ? [, 'choice', ''] : [, 'plain', '']);
          found.push(`${relative(ROOT, path)}:${name}${value && !value.includes('${') ? `=${value}` : ''}`);
        }
    }
  };
  walk(join(ROOT, 'src'));
  return found.sort();
}

/** The forms this test posts, each expected to answer 303 (post/redirect/get). */
const WALKED = [
  'src/broker/login/pages/choices-page.ts:choice',
  'src/broker/login/pages/choices-page.ts:action=cancel',
  'src/broker/login/pages/waiting-page.ts:action=continue',
  'src/broker/login/pages/waiting-page.ts:action=cancel',
  'src/broker/login/pages/waiting-page.ts:action=retry',
  'src/broker/login/pages/offer-page.ts:action=continue',
  'src/oidc/provider/logout-pages.ts:logout=everywhere',
  'src/oidc/provider/logout-pages.ts:logout=only',
  'src/credential-issuer/revocation/revocation-pages.ts:action=revoke',
];

/** Forms that are not ours to answer, or not a person's sign-in: why each is left out. */
const NOT_BROKER_POSTS: Record<string, string> = {
  'src/saml/pages/post-form-page.ts:saml-post=auto': "posts the SAML response to the merchant's ACS, not to us",
  'src/ciba/test-page/ciba-test-page.html.ts:plain': 'the CIBA test page (customer-test only) looks up with a provisioning code, kept out of URLs',
  'src/ciba/test-page/ciba-test-page.html.ts:request': 'the CIBA test page answers 303 already (ciba-test-page.e2e-spec.ts)',
};

/**
 * Every form the broker pages POST answers 303 to a GET (post/redirect/get, docs/broker-pages.md): a reload never
 * sends a form again. The forms are found by reading the templates, so a new form fails here until it is walked.
 * The credential offer, once a 200 answer to Continue, is a GET of its own that shows the same offer on every reload,
 * only to the browser that made it.
 */
describe('broker pages: every form POST answers 303', () => {
  let t: TestApp;
  let shop: client.Configuration;
  let bank: client.Configuration;
  let documentDir: string;
  const answered = new Map<string, number>();

  const formOf = (page: Page, name: string, value: string) => {
    const form = parseForms(page.html).find((f) => f.attributes[`data-${name}`] === value);
    if (!form) throw new Error(`no form data-${name}=${value} on ${page.url}`);
    return { url: new URL(form.action, page.url).toString(), fields: form.fields };
  };
  /** Posts the form as the page has it and records the answer under the template's name for the form. */
  const post = async (browser: TestBrowser, form: { url: string; fields: Record<string, string> }, template: string): Promise<Page> => {
    const answer = await browser.post(form.url, form.fields);
    answered.set(template, answer.status);
    expect([template, answer.status]).toEqual([template, 303]);
    return answer;
  };
  const open = async (config: client.Configuration, extra: Record<string, string> = {}) => {
    const browser = new TestBrowser(t.baseUrl);
    const request = await authorizationRequest(config, extra);
    return { browser, request, page: await browser.follow(await browser.get(request.url.toString())) };
  };

  beforeAll(async () => {
    t = await startTestApp();
    const admin = adminClient(t.baseUrl, t.adminToken);
    const s = await admin.createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI], post_logout_redirect_uris: [LOGGED_OUT] });
    shop = await discover(`${t.baseUrl}/oidc`, s.client_id, s.client_secret);
    const b = await admin.createMerchant({ name: 'Bank', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'], offer_credential: true });
    bank = await discover(`${t.baseUrl}/oidc`, b.client_id, b.client_secret);
    documentDir = await specimenDocumentDir(t.baseUrl);
  }, 60_000);
  afterAll(() => t?.close());

  it('the choice, test identities, cancel and logout', async () => {
    const { browser, page } = await open(shop);
    for (const form of parseForms(page.html).filter((f) => f.attributes['data-eid']))
      await post(browser, { url: new URL(form.action, page.url).toString(), fields: form.fields }, 'src/broker/login/pages/choices-page.ts:choice');
    const persons = await browser.follow(await post(browser, formOf(page, 'eid', 'test'), 'src/broker/login/pages/choices-page.ts:choice'));
    const signedIn = await browser.follow(await post(browser, formOf(persons, 'person', 'uto-passport'), 'src/broker/login/pages/choices-page.ts:choice'));
    expect(new URL(signedIn.location!).searchParams.get('code')).toBeTruthy();

    const cancelled = await open(shop);
    await post(cancelled.browser, formOf(cancelled.page, 'action', 'cancel'), 'src/broker/login/pages/choices-page.ts:action=cancel');

    // Logout, from the browser that signed in: the engine's confirmation page, both of its forms.
    for (const choice of ['only', 'everywhere']) {
      const logout = await browser.get(
        `${t.baseUrl}/oidc/session/end?${new URLSearchParams({ client_id: shop.clientMetadata().client_id, post_logout_redirect_uri: LOGGED_OUT })}`,
      );
      expect(logout.status).toBe(200);
      await post(browser, formOf(logout, 'logout', choice), `src/oidc/provider/logout-pages.ts:logout=${choice}`);
    }
  });

  it('the waiting page: Continue, retry and cancel', async () => {
    const { browser, page } = await open(bank);
    await post(browser, formOf(page, 'action', 'continue'), 'src/broker/login/pages/waiting-page.ts:action=continue');
    // The retry form is shown with a notice; it posts to Continue's address with action=retry.
    const cont = formOf(page, 'action', 'continue');
    await post(browser, { url: cont.url, fields: { ...cont.fields, action: 'retry' } }, 'src/broker/login/pages/waiting-page.ts:action=retry');
    await post(browser, formOf(page, 'action', 'cancel'), 'src/broker/login/pages/waiting-page.ts:action=cancel');
  });

  it('the credential offer: made by the POST, shown by GET, the same on a reload, to this browser only', async () => {
    const { browser, request, page } = await open(bank);
    const { client: sdk, qrToken } = VerifierClient.fromLink(/<a href="([^"]+)" data-action="open-app"/.exec(page.html)![1].replaceAll('&amp;', '&'));
    const outcome = await runVerification(sdk, qrToken, specimenPhone({ documentDir, selfie: SHELDON.center, left: SHELDON.left, right: SHELDON.right }));
    expect(outcome.authentication_result).toBe('pass');

    const made = await post(browser, formOf(page, 'action', 'continue'), 'src/broker/login/pages/waiting-page.ts:action=continue');
    const offerUrl = new URL(made.location!, made.url);
    expect(offerUrl.pathname).toMatch(/^\/its\/interaction\/[^/]+\/eid\/document-verifier\/offer$/);
    const txCodeOf = (p: Page) => /data-tx-code="(\d{6})"/.exec(p.html)?.[1];
    const shown = await browser.get(offerUrl.toString());
    expect(shown.status).toBe(200);
    expect(shown.cacheControl).toBe('no-store');
    const txCode = txCodeOf(shown);
    expect(txCode).toMatch(/^\d{6}$/);
    // A reload is a GET: the same offer, not a new one.
    const reloaded = await browser.get(offerUrl.toString());
    expect([reloaded.status, txCodeOf(reloaded)]).toEqual([200, txCode]);
    expect(reloaded.html).toContain('data-action="add-to-wallet"');

    // Another browser with the address: no offer (it has neither this login's cookie nor the offer's).
    const stranger = await new TestBrowser(t.baseUrl).get(offerUrl.toString());
    expect(stranger.status).toBe(400);
    expect(txCodeOf(stranger)).toBeUndefined();
    // This login without the offer's cookie: the scheme's page; the GET itself makes no offer.
    const withoutOffer = await fetch(offerUrl, {
      redirect: 'manual',
      headers: { cookie: browser.cookieHeader(offerUrl.toString()).replace(/(^|;\s*)broker_offer=[^;]*/, '') },
    });
    expect(withoutOffer.status).toBe(303);
    expect(withoutOffer.headers.get('location')).toBe(offerUrl.pathname.replace(/\/offer$/, ''));

    const done = await browser.follow(await post(browser, formOf(reloaded, 'action', 'continue'), 'src/broker/login/pages/offer-page.ts:action=continue'));
    const tokens = await client.authorizationCodeGrant(bank, new URL(done.location!), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    expect(tokens.claims()!.authentication_result).toBe('pass');
    // The login is over: its offer page is gone with it.
    expect((await browser.get(offerUrl.toString())).status).toBe(400);

    // The revocation link given with the offer: its confirmation answers 303 to the link, which says it is done (reloads too).
    const revokeUrl = /<a href="([^"]+)" data-action="revoke"/.exec(reloaded.html)![1].replaceAll('&amp;', '&');
    const question = await browser.get(revokeUrl);
    expect(question.status).toBe(200);
    const revoked = await post(browser, formOf(question, 'action', 'revoke'), 'src/credential-issuer/revocation/revocation-pages.ts:action=revoke');
    for (let reload = 0; reload < 2; reload++) {
      const answer = await browser.get(new URL(revoked.location!, revoked.url).toString());
      expect([answer.status, answer.html.includes('data-revocation="done"')]).toEqual([200, true]);
    }
    // Another browser with the link: nothing to revoke there, and no word of who revoked.
    expect((await new TestBrowser(t.baseUrl).get(revokeUrl)).status).toBe(404);
  }, 180_000);

  it('walked every POST form of the templates (a new form is walked here or named as not a broker post)', () => {
    expect(formsInTemplates()).toEqual([...new Set([...WALKED, ...Object.keys(NOT_BROKER_POSTS)])].sort());
    expect([...answered.entries()].sort()).toEqual(WALKED.map((form) => [form, 303]).sort());
  });
});
