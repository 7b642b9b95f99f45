/** The browser's side of a wallet login: the broker pages, the wallet links they show, the merchant's code redemption. */
import * as client from 'openid-client';
import { authorizationRequest, type PkceRequest } from '../oidc-flow.js';
import { TestBrowser, type Page } from '../test-browser.js';
import type { WalletWorld } from './wallet-world.js';

/**
 * The wallet links of the waiting page: the "Open wallet" button's (same device) and the one offered to copy, which is
 * also the QR code's (another device). Each names its own transaction.
 */
export function walletLinks(page: Page): { sameDevice: string; crossDevice: string } {
  const sameDevice = /<a href="([^"]+)" data-action="open-app"/.exec(page.html)?.[1].replace(/&amp;/g, '&');
  const crossDevice = /<input id="app-link"[^>]* value="([^"]+)"/.exec(page.html)?.[1].replace(/&amp;/g, '&');
  if (!sameDevice || !crossDevice) throw new Error(`no wallet links on ${page.url}:\n${page.html.slice(0, 2000)}`);
  return { sameDevice, crossDevice };
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
  return client.authorizationCodeGrant(w.merchant, new URL(done.location), {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
  });
}

/** Where the merchant was sent back to, and its error, when the login failed. */
export function merchantError(done: Page): string | null {
  if (!done.location) throw new Error(`expected a redirect to the merchant, got ${done.status}: ${done.html.slice(0, 1500)}`);
  return new URL(done.location).searchParams.get('error');
}

/**
 * The waiting page after a refused wallet answer: the person reads what happened and may answer again or start over;
 * the merchant hears nothing. Returns the notice's text.
 */
export function refusalShown(page: Page): string {
  const notice = /<div class="notice" role="alert" id="notice">([^<]*)<\/div>/.exec(page.html)?.[1];
  if (page.location || notice === undefined || !page.html.includes('data-action="retry"')) {
    throw new Error(`expected the waiting page with a notice, got ${page.status} ${page.location ?? ''}: ${page.html.slice(0, 1500)}`);
  }
  return notice;
}
