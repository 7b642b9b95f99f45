/** How far ahead of our clock an upstream's auth_time may be before it is nonsense rather than skew. */
export const AUTH_TIME_SKEW_SECONDS = 300;

export type AuthTimeVerdict =
  | { kind: 'ok'; authTime: Date; source: 'upstream' | 'callback' }
  /** The upstream's (believable) login is older than the merchant's max_age: it did not sign the person in again. */
  | { kind: 'stale'; ageSeconds: number };

/**
 * The auth_time the broker releases for an upstream login. An upstream value that is missing, not a
 * number, zero or negative (glewlwyd sends 0), or further in the future than clock skew explains says
 * nothing, so the time of our callback stands in: the person has just come back from a login at the
 * upstream. A value a little ahead of us is our callback time (never a future auth_time). A value before
 * our redirect is kept: the upstream reused its own session (single sign-on), and that is when the person
 * last authenticated. But it is never older than the merchant's max_age: the max_age went upstream with the
 * request (OpenID Connect Core 3.1.2.1: the upstream must then authenticate again), so an older answer
 * is an upstream that ignored it, and the login is refused rather than dated at our callback, which would
 * tell the merchant of a recent authentication that did not happen.
 */
export function brokeredAuthTime(claimed: unknown, callbackAt: Date, maxAge?: number): AuthTimeVerdict {
  const now = Math.floor(callbackAt.getTime() / 1000);
  if (typeof claimed !== 'number' || !Number.isFinite(claimed) || claimed <= 0 || claimed > now + AUTH_TIME_SKEW_SECONDS) {
    return { kind: 'ok', authTime: callbackAt, source: 'callback' };
  }
  if (claimed >= now) return { kind: 'ok', authTime: callbackAt, source: 'callback' };
  const age = now - Math.floor(claimed);
  if (maxAge !== undefined && age > maxAge) return { kind: 'stale', ageSeconds: age };
  return { kind: 'ok', authTime: new Date(Math.floor(claimed) * 1000), source: 'upstream' };
}

/** max_age as the engine hands it over (a number, or the query's text). */
export function maxAgeOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
