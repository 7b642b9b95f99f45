import { randomBytes } from 'node:crypto';
import { TestBrowser, type Page } from '../support/test-browser.js';
import { MERCHANT_ORIGIN } from '../support/oidc-flow.js';

export const SAML_ARTIFACT_RECEIVER = `${MERCHANT_ORIGIN}/Shibboleth.sso/SAML/Artifact`;

export interface ArtifactRedirect {
  location: URL;
  artifact: string;
  target: string | null;
  browser: TestBrowser;
}

/** The redirect a Browser/Artifact sign-in ends with: to the artifact receiver, with SAMLart and TARGET. */
export function artifactRedirect(page: Page, browser: TestBrowser): ArtifactRedirect {
  if (page.status !== 303 || !page.location) throw new Error(`expected the artifact redirect, got ${page.status}: ${page.html.slice(0, 1500)}`);
  const location = new URL(page.location);
  return { location, artifact: location.searchParams.get('SAMLart') ?? '', target: location.searchParams.get('TARGET'), browser };
}

/** A SAML sign-in from the front door through the test eID, ending at the artifact redirect. */
export async function samlArtifactLoginWithTestEid(baseUrl: string, query: Record<string, string>, person = 'uto-passport'): Promise<ArtifactRedirect> {
  const browser = new TestBrowser(baseUrl);
  let page = await browser.follow(await browser.get(`${baseUrl}/its/index.html?${new URLSearchParams(query)}`));
  if (page.html.includes('data-eid="test"')) page = await browser.submit(page, 'eid', 'test');
  return artifactRedirect(await browser.submit(page, 'person', person), browser);
}

/** A SOAP 1.1 samlp:Request for one artifact, as a Shibboleth SP sends it. */
export function artifactRequestSoap(artifact: string, requestId = `_${randomBytes(16).toString('hex')}`): { soap: string; requestId: string } {
  const soap = `<?xml version="1.0" encoding="UTF-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Body>
    <samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol" MajorVersion="1" MinorVersion="1" RequestID="${requestId}" IssueInstant="${new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')}">
      <samlp:AssertionArtifact>${artifact}</samlp:AssertionArtifact>
    </samlp:Request>
  </soap:Body>
</soap:Envelope>`;
  return { soap, requestId };
}

export interface SoapAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** POSTs a SOAP message to the artifact resolution service with HTTP Basic merchant credentials. */
export async function postSoap(
  baseUrl: string,
  body: string,
  credentials?: { client_id: string; client_secret: string },
  contentType = 'text/xml; charset=utf-8',
): Promise<SoapAnswer> {
  const headers: Record<string, string> = { 'content-type': contentType, soapaction: 'http://www.oasis-open.org/committees/security' };
  if (credentials) headers.authorization = `Basic ${Buffer.from(`${credentials.client_id}:${credentials.client_secret}`).toString('base64')}`;
  const res = await fetch(`${baseUrl}/saml/artifact`, { method: 'POST', headers, body });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
}

/** The samlp:Response element of a SOAP answer, as its exact bytes (what the signature covers). */
export function responseOf(soap: string): string {
  const m = /<samlp:Response[\s\S]*<\/samlp:Response>/.exec(soap);
  if (!m) throw new Error(`no samlp:Response in ${soap.slice(0, 800)}`);
  return m[0];
}
