/** How far an upstream's clock may be off ours before its auth_time is nonsense rather than skew. */
export const AUTH_TIME_SKEW_SECONDS = 300;

export type AuthTimeVerdict =
  | { kind: 'ok'; authTime: Date; source: 'upstream' | 'callback' }
  /** The upstream reused a session older than the merchant's max_age: it did not sign the person in again. */
  | { kind: 'stale'; ageSeconds: number };

export interface AuthTimeWindow {
  /** When we sent the browser to the upstream (unknown for a redirect made before this was recorded). */
  redirectedAt?: Date;
  callbackAt: Date;
  maxAge?: number;
}

/**
 * The auth_time the broker releases for an upstream login.
 * - Missing, not a number, zero or negative (glewlwyd sends 0), or beyond clock skew in the future: it says
 *   nothing, and the callback time stands in (the person has just come back from the upstream).
 * - Within clock skew of our redirect and callback: the login happened during this interaction, so it is
 *   clamped into it (a login cannot predate our redirect, nor follow the callback). It satisfies any max_age:
 *   the person authenticated for this very request.
 * - Earlier than that: the upstream reused its own session (single sign-on), and that is when the person last
 *   authenticated, so it is kept. But never beyond the merchant's max_age: the max_age went upstream with the
 *   request (OpenID Connect Core 3.1.2.1: authenticate again beyond it), so an older answer is an upstream that
 *   ignored it, and the login is refused rather than re-dated (a re-dated time would tell the merchant of an
 *   authentication that did not happen).
 */
export function brokeredAuthTime(claimed: unknown, { redirectedAt, callbackAt, maxAge }: AuthTimeWindow): AuthTimeVerdict {
  const callback = seconds(callbackAt);
  if (typeof claimed !== 'number' || !Number.isFinite(claimed) || claimed <= 0 || claimed > callback + AUTH_TIME_SKEW_SECONDS) {
    return { kind: 'ok', authTime: callbackAt, source: 'callback' };
  }
  const value = Math.floor(claimed);
  if (value >= callback) return { kind: 'ok', authTime: callbackAt, source: 'callback' };
  const start = redirectedAt ? Math.min(seconds(redirectedAt), callback) : undefined;
  if (start !== undefined && value >= start - AUTH_TIME_SKEW_SECONDS)
    return { kind: 'ok', authTime: new Date(Math.max(value, start) * 1000), source: 'upstream' };
  const age = callback - value;
  if (maxAge !== undefined && age > maxAge) return { kind: 'stale', ageSeconds: age };
  return { kind: 'ok', authTime: new Date(value * 1000), source: 'upstream' };
}

function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
