import * as client from 'openid-client';
import { authorizationRequest, REDIRECT_URI } from './oidc-flow.js';
import { TestBrowser, type Page } from './test-browser.js';

/** Follows every redirect, across hosts (broker, upstream), until the merchant's redirect URI or a page. */
export async function walk(browser: TestBrowser, url: string, stopAt = REDIRECT_URI): Promise<Page> {
  let page = await browser.get(url);
  for (let i = 0; i < 20 && page.location; i++) {
    const next = new URL(page.location, page.url).toString();
    if (next.startsWith(stopAt)) return page;
    page = await browser.get(next);
  }
  return page;
}

/** A merchant's login through the broker (and whatever upstream it sends the browser to), as far as it goes. */
export async function upstreamLogin(baseUrl: string, rp: client.Configuration, extra: Record<string, string> = {}) {
  const request = await authorizationRequest(rp, extra);
  const browser = new TestBrowser(baseUrl);
  const page = await walk(browser, request.url.toString());
  return { request, browser, page };
}

/** The failure page's link on to the merchant, followed: the merchant's redirect with the error, never a code. */
export async function errorForMerchant(browser: TestBrowser, page: Page): Promise<URLSearchParams> {
  if (page.status !== 200) throw new Error(`expected the error page, got ${page.status}: ${page.html.slice(0, 500)}`);
  const link = /<a href="([^"]+)" data-action="return"/.exec(page.html)?.[1];
  if (!link) throw new Error(`no return link on the page: ${page.html.slice(0, 500)}`);
  const end = await walk(browser, new URL(link.replace(/&amp;/g, '&'), page.url).toString());
  const location = new URL(end.location!);
  if (`${location.origin}${location.pathname}` !== REDIRECT_URI) throw new Error(`not back at the merchant: ${location.href}`);
  if (location.searchParams.get('code') !== null) throw new Error('a code was issued');
  return location.searchParams;
}
