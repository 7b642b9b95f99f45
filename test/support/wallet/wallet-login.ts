/** The browser's side of a wallet login: the broker pages, the wallet links they show, the merchant's code redemption. */
import * as client from 'openid-client';
import { authorizationRequest, type PkceRequest } from '../oidc-flow.js';
import { TestBrowser, type Page } from '../test-browser.js';
import type { WalletWorld } from './wallet-world.js';

/** The wallet links of the waiting page: the "Open wallet" button's (same device) and the QR code's (another device). */
export function walletLinks(page: Page): { sameDevice: string; crossDevice: string } {
  const href = /<a href="([^"]+)" data-action="open-app"/.exec(page.html)?.[1].replace(/&amp;/g, '&');
  if (!href) throw new Error(`no wallet link on ${page.url}:\n${page.html.slice(0, 2000)}`);
  const url = new URL(href);
  const requestUri = new URL(url.searchParams.get('request_uri')!);
  requestUri.searchParams.set('flow', 'cross_device');
  url.searchParams.set('request_uri', requestUri.toString());
  return { sameDevice: href, crossDevice: `openid4vp://?${url.searchParams.toString()}` };
}

export interface WalletLogin {
  browser: TestBrowser;
  page: Page;
  request: PkceRequest;
}

/** The merchant's authorization request in a new browser, on to the wallet's waiting page. */
export async function startWalletLogin(w: WalletWorld, scope: string, extra: Record<string, string> = {}): Promise<WalletLogin> {
  const request = await authorizationRequest(w.merchant, { scope, ...extra });
  const browser = new TestBrowser(w.t.baseUrl);
  let page = await browser.follow(await browser.get(request.url.toString()));
  if (page.html.includes('data-eid="eu-wallet"')) page = await browser.submit(page, 'eid', 'eu-wallet');
  return { browser, page, request };
}

/** The merchant redeems the code the browser was sent back with. */
export function redeem(w: WalletWorld, done: Page, request: PkceRequest) {
  if (!done.location) throw new Error(`expected a redirect to the merchant, got ${done.status}: ${done.html.slice(0, 1500)}`);
  return client.authorizationCodeGrant(w.merchant, new URL(done.location), { pkceCodeVerifier: request.verifier, expectedState: request.state, expectedNonce: request.nonce });
}

/** Where the merchant was sent back to, and its error, when the login failed. */
export function merchantError(done: Page): string | null {
  if (!done.location) throw new Error(`expected a redirect to the merchant, got ${done.status}: ${done.html.slice(0, 1500)}`);
  return new URL(done.location).searchParams.get('error');
}
