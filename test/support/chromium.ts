import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { describeWhen } from './when-available.js';

/** Debian's Chromium, installed by .ci/run (`apt-get install chromium`); playwright-core brings no browser. */
export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = (): boolean => existsSync(CHROMIUM);

/**
 * `describe` when Chromium is there; otherwise skipped, or under CI=true one failing test (CI must run them).
 */
export function describeWithChromium(name: string, fn: () => void): void {
  describeWhen({ available: chromiumAvailable(), missing: 'Chromium not installed', install: 'apt-get install chromium' }, name, fn);
}

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless Chromium on a fresh profile, quiet: no background networking, updates or sync, so the only
 * requests it makes are the pages' own (the tests watch them).
 */
export async function launchChromium(options: { javaScriptEnabled?: boolean; phone?: { width: number; height: number } } = {}): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    locale: 'en-GB',
    // A phone as Chromium plays one (`phone`): a page without a viewport meta tag is laid out 980 pixels wide, as there.
    ...(options.phone ? { viewport: options.phone, isMobile: true, hasTouch: true } : {}),
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
