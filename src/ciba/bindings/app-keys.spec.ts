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
      const checks = Array.from({ length: 8 }, (_, i) => secretMatches(i === 0 ? 'app-secret-of-an-installation' : `wrong-${i}`, stored));
      // The ticks counted when the first check settles: synchronous checks would have held the loop until then, so no
      // timer could have fired (0); off the loop the 1 ms timer runs while scrypt works. No clock is read: load cannot flake it.
      const ticksAtFirstResult = await Promise.race(checks).then(() => ticks);
      const results = await Promise.all(checks);
      expect(results).toEqual([true, false, false, false, false, false, false, false]);
      expect(ticksAtFirstResult).toBeGreaterThan(0);
    } finally {
      clearInterval(ticker);
    }
  });

  it('refuses a missing or malformed stored hash', async () => {
    expect(await secretMatches('x', undefined)).toBe(false);
    expect(await secretMatches('x', 'not-a-hash')).toBe(false);
  });
});
