import { within } from './expiry-metrics.js';

/** A scrape never waits on a slow or failing owner of certificates: its series are left out, the rest answer. */
describe('the expiry series wait a bounded time for each source', () => {
  it('answers the value of a source that settles in time', async () => {
    await expect(within(1000, Promise.resolve(['cert']), undefined)).resolves.toEqual(['cert']);
  });

  it('answers the fallback for a source that fails', async () => {
    await expect(within(1000, Promise.reject(new Error('database down')), undefined)).resolves.toBeUndefined();
  });

  it('answers the fallback once the bound has passed, while the source still hangs', async () => {
    const started = Date.now();
    await expect(within(50, new Promise(() => undefined), 'left out')).resolves.toBe('left out');
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});
