import { X509Certificate } from 'node:crypto';
import { TestBrowser, parseForms, type HtmlForm, type Page } from '../support/test-browser.js';
import { MERCHANT_ORIGIN } from '../support/oidc-flow.js';

export const SAML_ACS = `${MERCHANT_ORIGIN}/Shibboleth.sso/SAML/POST`;

/** Our signing certificate as the merchant gets it: from /saml/metadata. */
export async function certificateFromMetadata(baseUrl: string): Promise<{ metadata: string; certificatePem: string }> {
  const metadata = await (await fetch(`${baseUrl}/saml/metadata`)).text();
  const body = /<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(metadata)![1];
  const certificatePem = new X509Certificate(Buffer.from(body, 'base64')).toString();
  return { metadata, certificatePem };
}

export interface PostedResponse {
  page: Page;
  form: HtmlForm;
  xml: string;
  browser: TestBrowser;
}

/** Walks a SAML sign-in from the front door through the test eID to the auto-submitting form. */
export async function samlLoginWithTestEid(
  baseUrl: string,
  query: Record<string, string>,
  person = 'uto-passport',
  browser = new TestBrowser(baseUrl),
): Promise<PostedResponse> {
  return samlLoginAt(`${baseUrl}/its/index.html?${new URLSearchParams(query)}`, person, browser);
}

/** The same from a request URL as a service provider builds it (its own parameter order and encoding). */
export async function samlLoginAt(url: string, person = 'uto-passport', browser = new TestBrowser(new URL(url).origin)): Promise<PostedResponse> {
  let page = await browser.follow(await browser.get(url));
  if (page.html.includes('data-eid="test"')) page = await browser.submit(page, 'eid', 'test');
  page = await browser.submit(page, 'person', person);
  return postedResponse(page, browser);
}

export function postedResponse(page: Page, browser: TestBrowser): PostedResponse {
  const form = parseForms(page.html).find((f) => f.attributes['data-saml-post'] === 'auto');
  if (!form) throw new Error(`expected the SAML form, got ${page.status}: ${page.html.slice(0, 1500)}`);
  return { page, form, xml: Buffer.from(form.fields.SAMLResponse, 'base64').toString('utf8'), browser };
}

/** AttributeName -> value of the assertion's AttributeStatement. */
export function attributesOf(xml: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of xml.matchAll(
    /<saml:Attribute AttributeName="([^"]+)" AttributeNamespace="([^"]+)"><saml:AttributeValue>([^<]*)<\/saml:AttributeValue><\/saml:Attribute>/g,
  )) {
    expect(m[2]).toBe('urn:mace:shibboleth:1.0:attributeNamespace:uri');
    out[m[1]] = m[3]
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  }
  return out;
}

export function nameIdentifierOf(xml: string): string {
  return /<saml:NameIdentifier [^>]*>([^<]+)<\/saml:NameIdentifier>/.exec(xml)![1];
}
