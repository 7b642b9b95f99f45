import { TestBrowser, parseForms, type Page } from '../support/test-browser.js';

export interface SpLogin {
  /** The last page: the SP's protected page (or whatever stopped the walk). */
  page: Page;
  /** Every URL requested, in order (the path through SP, broker and back). */
  visited: string[];
  browser: TestBrowser;
  /** The SAMLResponse documents our pages posted to the SP (Browser/POST), decoded. */
  postedResponses: string[];
}

export interface SpLoginOptions {
  person?: string;
  browser?: TestBrowser;
  /** Changes the SAMLResponse on its way through the browser (what an attacker holding the browser can do). */
  tamper?: (xml: string) => string;
}

/**
 * A user opening an SP's protected page and signing in at the broker with the test eID: follows redirects
 * across origins (SP -> broker -> SP), picks the test eID and the person on our pages, and submits the
 * auto-submitting SAML form, as a browser with JavaScript would, until a page stays.
 */
export async function loginThroughSp(brokerOrigin: string, startUrl: string, options: SpLoginOptions = {}): Promise<SpLogin> {
  const { person = 'uto-passport', browser = new TestBrowser(brokerOrigin), tamper } = options;
  const visited: string[] = [];
  const postedResponses: string[] = [];
  const track = async (p: Promise<Page>) => {
    const page = await p;
    visited.push(page.url);
    return page;
  };
  let page = await track(browser.get(startUrl));
  for (let step = 0; step < 30; step++) {
    const forms = parseForms(page.html);
    const samlPost = forms.find((f) => f.attributes['data-saml-post'] === 'auto');
    if (page.location) page = await track(browser.get(new URL(page.location, page.url).toString()));
    else if (page.html.includes('data-eid="test"')) page = await track(browser.submit(page, 'eid', 'test'));
    else if (forms.some((f) => f.attributes['data-person'] === person)) page = await track(browser.submit(page, 'person', person));
    else if (samlPost) {
      const xml = Buffer.from(samlPost.fields.SAMLResponse, 'base64').toString('utf8');
      const sent = tamper ? tamper(xml) : xml;
      postedResponses.push(sent);
      page = await track(
        browser.post(new URL(samlPost.action, page.url).toString(), { ...samlPost.fields, SAMLResponse: Buffer.from(sent).toString('base64') }),
      );
    } else return { page, visited, browser, postedResponses };
  }
  throw new Error(`no end after 30 steps: ${visited.join(' -> ')}`);
}
