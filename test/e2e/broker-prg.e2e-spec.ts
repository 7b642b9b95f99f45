import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { parseForms, TestBrowser, type Page } from '../support/test-browser.js';

/**
 * The broker's form POSTs answer 303 to a GET (post/redirect/get): a reload shows the page again and
 * never resubmits a form. CSRF protection still refuses forged posts.
 */
describe('broker pages: post/redirect/get', () => {
  let t: TestApp;
  let config: client.Configuration;

  const formOf = (page: Page, name: string, value: string) => {
    const form = parseForms(page.html).find((f) => f.attributes[`data-${name}`] === value);
    if (!form) throw new Error(`no form data-${name}=${value}`);
    return { url: new URL(form.action, page.url).toString(), fields: form.fields };
  };
  /** A browser on the scheme choice page of a fresh authorization request. */
  const onChoicePage = async (extra: Record<string, string> = {}) => {
    const browser = new TestBrowser(t.baseUrl);
    const page = await browser.follow(await browser.get((await authorizationRequest(config, extra)).url.toString()));
    expect(page.status).toBe(200);
    return { browser, page };
  };

  beforeAll(async () => {
    t = await startTestApp();
    const admin = adminClient(t.baseUrl, t.adminToken);
    const m = await admin.createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI] });
    config = await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret);
  });
  afterAll(() => t?.close());

  it('choosing a scheme answers 303 to a page that renders, and reloads, on GET', async () => {
    const { browser, page } = await onChoicePage();
    const choose = formOf(page, 'eid', 'test');
    const posted = await browser.post(choose.url, choose.fields);
    expect(posted.status).toBe(303);
    const target = new URL(posted.location!, posted.url);
    expect(target.origin).toBe(t.baseUrl);
    const persons = await browser.get(target.toString());
    expect(persons.status).toBe(200);
    expect(persons.html).toMatch(/data-person="uto-passport"/);
    const reloaded = await browser.get(target.toString());
    expect(reloaded.status).toBe(200);
    expect(reloaded.html).toMatch(/data-person="uto-passport"/);
  });

  it('choosing a test person answers 303 and completes the login', async () => {
    const { browser, page } = await onChoicePage();
    const persons = await browser.submit(page, 'eid', 'test');
    const choose = formOf(persons, 'person', 'uto-passport');
    const posted = await browser.post(choose.url, choose.fields);
    expect(posted.status).toBe(303);
    const done = await browser.follow(posted);
    expect(new URL(done.location!).searchParams.get('code')).toBeTruthy();
  });

  it('an unknown test person answers 303 back to the person page', async () => {
    const { browser, page } = await onChoicePage();
    const persons = await browser.submit(page, 'eid', 'test');
    const choose = formOf(persons, 'person', 'uto-passport');
    const posted = await browser.post(choose.url, { ...choose.fields, person: 'nobody' });
    expect(posted.status).toBe(303);
    const again = await browser.get(new URL(posted.location!, posted.url).toString());
    expect(again.status).toBe(200);
    expect(again.html).toMatch(/data-person="uto-passport"/);
  });

  it('continue on the verifier page answers 303 to the waiting page while the phone is not done', async () => {
    const { browser, page } = await onChoicePage({ login_hint: 'eid:document-verifier' });
    expect(page.html).toMatch(/data-action="continue"/);
    const cont = formOf(page, 'action', 'continue');
    const posted = await browser.post(cont.url, cont.fields);
    expect(posted.status).toBe(303);
    const waiting = await browser.get(new URL(posted.location!, posted.url).toString());
    expect(waiting.status).toBe(200);
    expect(waiting.html).toMatch(/data-action="continue"/);
  });

  it('cancel answers 303', async () => {
    const { browser, page } = await onChoicePage();
    const cancel = formOf(page, 'action', 'cancel');
    const posted = await browser.post(cancel.url, cancel.fields);
    expect(posted.status).toBe(303);
    const done = await browser.follow(posted);
    expect(new URL(done.location!).searchParams.get('error')).toBe('access_denied');
  });

  it('still refuses every form post without or with a wrong CSRF token', async () => {
    const { browser, page } = await onChoicePage();
    const persons = await browser.submit(page, 'eid', 'test');
    const forms = [formOf(page, 'eid', 'test'), formOf(persons, 'person', 'uto-passport'), formOf(page, 'action', 'cancel')];
    for (const form of forms) {
      const { _csrf: _omitted, ...withoutToken } = form.fields;
      for (const fields of [withoutToken, { ...form.fields, _csrf: 'forged' }]) {
        const res = await browser.post(form.url, fields);
        expect(res.status).toBe(403);
        expect(res.html).toContain('csrf_rejected');
      }
    }
    // Nothing was done by the refused posts: the person page still leads to a login.
    const done = await browser.follow(await browser.submit(persons, 'person', 'uto-passport'));
    expect(new URL(done.location!).searchParams.get('code')).toBeTruthy();
  });
});
