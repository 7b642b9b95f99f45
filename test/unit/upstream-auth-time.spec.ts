import { AUTH_TIME_SKEW_SECONDS, brokeredAuthTime, maxAgeOf } from '../../src/eid/upstream-oidc/upstream-auth-time.js';

describe('brokered auth_time', () => {
  const callback = new Date('2026-05-01T12:00:00Z');
  const now = callback.getTime() / 1000;
  const at = (seconds: number) => new Date(seconds * 1000);

  it('takes a missing, non-numeric, zero, negative or far-future value as unknown: the callback time', () => {
    for (const claimed of [undefined, null, '1700000000', Number.NaN, Infinity, 0, -1, now + AUTH_TIME_SKEW_SECONDS + 1]) {
      expect(brokeredAuthTime(claimed, callback, 600)).toEqual({ kind: 'ok', authTime: callback, source: 'callback' });
    }
  });

  it('never dates a login in the future: a value within the clock skew is the callback time', () => {
    expect(brokeredAuthTime(now + AUTH_TIME_SKEW_SECONDS, callback)).toEqual({ kind: 'ok', authTime: callback, source: 'callback' });
    expect(brokeredAuthTime(now, callback)).toEqual({ kind: 'ok', authTime: callback, source: 'callback' });
  });

  it("keeps an earlier upstream login (its own session) up to the merchant's max_age, and refuses an older one", () => {
    expect(brokeredAuthTime(now - 600, callback, 600)).toEqual({ kind: 'ok', authTime: at(now - 600), source: 'upstream' });
    expect(brokeredAuthTime(now - 601, callback, 600)).toEqual({ kind: 'stale', ageSeconds: 601 });
    expect(brokeredAuthTime(now - 86_400, callback)).toEqual({ kind: 'ok', authTime: at(now - 86_400), source: 'upstream' });
    expect(brokeredAuthTime(now - 1, callback, 0)).toEqual({ kind: 'stale', ageSeconds: 1 });
  });

  it('reads max_age as the engine hands it over, and nothing else', () => {
    expect(maxAgeOf(600)).toBe(600);
    expect(maxAgeOf('600')).toBe(600);
    expect(maxAgeOf(0)).toBe(0);
    for (const bad of [undefined, '', '-1', '1e3', '6OO', -5, 1.5, '99999999999']) expect(maxAgeOf(bad)).toBeUndefined();
  });
});
