import * as client from 'openid-client';
import { TestBrowser, type Page } from './test-browser.js';

/**
 * The test merchants' web server (test/support/merchant-callback-setup.mjs, Jest's globalSetup): an ephemeral port of
 * the loopback addresses, so a browser that follows a login to its end reaches the tests' own server and no other.
 */
export const MERCHANT_ORIGIN = merchantOrigin();
export const REDIRECT_URI = `${MERCHANT_ORIGIN}/callback`;

function merchantOrigin(): string {
  const origin = process.env.TEST_MERCHANT_ORIGIN;
  if (!origin) throw new Error("TEST_MERCHANT_ORIGIN is not set: run the tests through Jest (package.json's globalSetup starts the merchants' server)");
  return origin;
}

export async function discover(issuer: string, clientId: string, secret: string, metadata: Partial<client.ClientMetadata> = {}) {
  return client.discovery(new URL(issuer), clientId, { client_secret: secret, ...metadata }, client.ClientSecretBasic(secret), {
    execute: [client.allowInsecureRequests],
  });
}

export interface PkceRequest {
  url: URL;
  state: string;
  nonce: string;
  verifier: string;
}

export async function authorizationRequest(config: client.Configuration, extra: Record<string, string> = {}): Promise<PkceRequest> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid profile ssn',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, state, nonce, verifier };
}

/**
 * Walks the broker pages as a user would: the authorization request, the scheme choice (when the page
 * offers one), the specimen person of the test eID, back to the merchant's redirect URI.
 */
export async function loginWithTestEid(
  baseUrl: string,
  authorizationUrl: URL | string,
  person = 'uto-passport',
): Promise<{ callback: URL; browser: TestBrowser }> {
  const browser = new TestBrowser(baseUrl);
  let page: Page = await browser.follow(await browser.get(authorizationUrl.toString()));
  if (page.html.includes('data-eid="test"')) page = await browser.submit(page, 'eid', 'test');
  page = await browser.follow(await browser.submit(page, 'person', person));
  if (!page.location) throw new Error(`expected a redirect to the merchant, got ${page.status}: ${page.html.slice(0, 1500)}`);
  return { callback: new URL(page.location), browser };
}

/**
 * Ends a login that stands on the test eID's person page: chooses `person`, follows to the merchant's redirect URI
 * and redeems the code there as the merchant (`config`) that sent `request`.
 */
export async function finishTestEidLogin(browser: TestBrowser, page: Page, config: client.Configuration, request: PkceRequest, person = 'uto-passport') {
  const done = await browser.follow(await browser.submit(page, 'person', person));
  if (!done.location) throw new Error(`expected a redirect to the merchant, got ${done.status}: ${done.html.slice(0, 1500)}`);
  return client.authorizationCodeGrant(config, new URL(done.location), {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
  });
}

/** The first redirect or page the authorization request leads to, without logging in. */
export async function firstResponse(baseUrl: string, url: URL | string): Promise<Page> {
  return new TestBrowser(baseUrl).get(url.toString());
}
