import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

/** The checks the browser specs run on every page they show: the same locales, sizes, axe rules and focus test. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const LOCALES = ['en_GB', 'nb_NO', 'de_DE'] as const;
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
export type Size = (typeof VIEWPORTS)[keyof typeof VIEWPORTS];

/**
 * `SAVE_SCREENSHOTS=1` refreshes docs/screenshots (one per page, locale and viewport); otherwise they go to a
 * temporary folder, so a test run leaves the tree clean. Axe and the other checks run either way.
 */
export const SHOTS = process.env.SAVE_SCREENSHOTS === '1' ? join(import.meta.dirname, '../../docs/screenshots') : mkdtempSync(join(tmpdir(), 'screens-'));

/** axe-core's WCAG 2.1 A/AA and best-practice rules: zero violations, each named with its elements when not. */
export async function expectAxeClean(page: Page, name: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() =>
    (globalThis as unknown as { axe: { run(o: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    }),
  );
  expect({ page: name, violations: result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`) }).toEqual({
    page: name,
    violations: [],
  });
}

/** The page's main action has the focus as the page opens (autofocus: the pages run no script for it). */
export async function expectFocus(page: Page, name: string, selector: string): Promise<void> {
  const focused = await page
    .waitForFunction(`document.activeElement === document.querySelector(${JSON.stringify(selector)})`, undefined, { timeout: 3000 })
    .then(
      () => true,
      async () => page.evaluate('document.activeElement && document.activeElement.outerHTML.slice(0, 160)'),
    );
  expect({ page: name, selector, focused }).toEqual({ page: name, selector, focused: true });
}

/** The merchant's logo is drawn, and it came from our origin (the merchant's own server is never asked). */
export async function expectLogo(page: Page, name: string, merchantName: string): Promise<void> {
  const drawn = `(() => { const i = document.querySelector('img.merchant-logo[alt=${JSON.stringify(merchantName)}]'); return i && i.complete && i.naturalWidth > 0 ? i.getAttribute('src') : null; })()`;
  // A page is checked once its main action is there, which can be before its images have loaded (a busy machine):
  // the logo gets a few seconds to arrive; one that never draws fails below as before.
  await page.waitForFunction(drawn, undefined, { timeout: 10_000 }).catch(() => undefined);
  const src = await page.evaluate(drawn);
  expect({ page: name, src }).toEqual({ page: name, src: expect.stringMatching(/^\/its\/assets\/logos\/[0-9a-f]{64}$/) });
}

/** A new tab at the phone's or the desktop's size before the page loads: autofocus picks by the layout. */
export async function openAt(context: BrowserContext, size: Size, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize(size);
  await page.goto(url);
  return page;
}

/**
 * Nothing sticks out of the page sideways unnoticed: every element that reaches past the viewport's right edge sits in
 * a scroll container (overflow-x auto or scroll) that itself fits, and the page as a whole does not scroll sideways.
 */
export async function expectNoOverflow(page: Page, name: string): Promise<void> {
  // Runs in the page; a string, as the tests compile without the DOM's types.
  const found = await page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const fits = (e) => e.getBoundingClientRect().right <= width + 0.5;
    const scrolls = (e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && fits(e);
    const outside = [];
    for (const e of document.body.querySelectorAll('*')) {
      if (e.getBoundingClientRect().width === 0 || fits(e)) continue;
      let a = e.parentElement;
      while (a && a !== document.body && !scrolls(a)) a = a.parentElement;
      if (!a || a === document.body) outside.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + Math.round(e.getBoundingClientRect().right) + 'px');
    }
    return { viewport: width, pageScrollsSideways: document.documentElement.scrollWidth > width, outside: outside.slice(0, 8) };
  })()`);
  expect({ page: name, found }).toEqual({ page: name, found: expect.objectContaining({ pageScrollsSideways: false, outside: [] }) });
}
