import { performance } from 'node:perf_hooks';
import { hashSecret, secretMatches } from './app-keys.js';

/**
 * App secrets and user codes are checked with scrypt (tens of milliseconds each). Whoever knows an app id can make the
 * service check a secret, so the work must run off the event loop: the call returns at once, and other callbacks run
 * while it works.
 */
describe('app secret hashing', () => {
  it('hashes and checks without holding the event loop', async () => {
    const stored = await hashSecret('app-secret-of-an-installation');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    try {
      const started = performance.now();
      const checks = Array.from({ length: 8 }, (_, i) => secretMatches(i === 0 ? 'app-secret-of-an-installation' : `wrong-${i}`, stored));
      const returnedAfterMs = performance.now() - started;
      const results = await Promise.all(checks);
      expect(results).toEqual([true, false, false, false, false, false, false, false]);
      // Eight synchronous checks would hold the loop for their whole time before returning, and no timer would fire.
      expect(returnedAfterMs).toBeLessThan(20);
      expect(ticks).toBeGreaterThan(0);
    } finally {
      clearInterval(ticker);
    }
  });

  it('refuses a missing or malformed stored hash', async () => {
    expect(await secretMatches('x', undefined)).toBe(false);
    expect(await secretMatches('x', 'not-a-hash')).toBe(false);
  });
});
