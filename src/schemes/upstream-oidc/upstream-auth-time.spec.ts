import { AUTH_TIME_SKEW_SECONDS, brokeredAuthTime } from './upstream-auth-time.js';

describe('brokered auth_time', () => {
  const callbackAt = new Date('2026-05-01T12:00:00Z');
  const now = callbackAt.getTime() / 1000;
  /** The user spent 40 s at the upstream. */
  const redirectedAt = new Date((now - 40) * 1000);
  const at = (seconds: number) => new Date(seconds * 1000);
  const window = (maxAge?: number) => ({ redirectedAt, callbackAt, maxAge });

  it('takes a missing, non-numeric, zero, negative or far-future value as unknown: the callback time', () => {
    for (const claimed of [undefined, null, '1700000000', Number.NaN, Infinity, 0, -1, now + AUTH_TIME_SKEW_SECONDS + 1]) {
      expect(brokeredAuthTime(claimed, window(600))).toEqual({ kind: 'ok', authTime: callbackAt, source: 'callback' });
    }
  });

  it('never dates a login in the future: a value within the clock skew is the callback time', () => {
    expect(brokeredAuthTime(now + AUTH_TIME_SKEW_SECONDS, window())).toEqual({ kind: 'ok', authTime: callbackAt, source: 'callback' });
    expect(brokeredAuthTime(now, window())).toEqual({ kind: 'ok', authTime: callbackAt, source: 'callback' });
  });

  it('a login during the interaction keeps its time; one a little before our redirect (skew) is clamped to the redirect, whatever max_age', () => {
    expect(brokeredAuthTime(now - 5, window(0))).toEqual({ kind: 'ok', authTime: at(now - 5), source: 'upstream' });
    expect(brokeredAuthTime(now - 40 - AUTH_TIME_SKEW_SECONDS, window(0))).toEqual({ kind: 'ok', authTime: redirectedAt, source: 'upstream' });
  });

  it("keeps an earlier upstream session's time up to the merchant's max_age, and refuses an older one", () => {
    const sso = now - 40 - AUTH_TIME_SKEW_SECONDS - 1;
    expect(brokeredAuthTime(sso, window(3600))).toEqual({ kind: 'ok', authTime: at(sso), source: 'upstream' });
    expect(brokeredAuthTime(sso, window(300))).toEqual({ kind: 'stale', ageSeconds: 40 + AUTH_TIME_SKEW_SECONDS + 1 });
    expect(brokeredAuthTime(now - 86_400, window())).toEqual({ kind: 'ok', authTime: at(now - 86_400), source: 'upstream' });
    // A redirect recorded before the redirect time was: only max_age bounds it.
    expect(brokeredAuthTime(now - 600, { callbackAt, maxAge: 600 })).toEqual({ kind: 'ok', authTime: at(now - 600), source: 'upstream' });
    expect(brokeredAuthTime(now - 601, { callbackAt, maxAge: 600 })).toEqual({ kind: 'stale', ageSeconds: 601 });
  });
});
