import { createHmac } from 'node:crypto';

/**
 * The broker's `sub` for a person of an upstream scheme. `hashed` (the default): an HMAC under
 * SUBJECT_SECRET of scheme, upstream issuer and the upstream's identifier, so it is stable, reveals
 * nothing of the upstream's value (often a national identity number) and never collides across schemes.
 * `upstream`: the upstream value behind the scheme id, for merchants that must match it to their records.
 */
export function upstreamSubject(secret: string, scheme: string, issuer: string, mode: 'hashed' | 'upstream', value: string): string {
  if (mode === 'upstream') return `${scheme}:${value}`;
  if (!secret || secret.length < 32) throw new RangeError('upstreamSubject needs SUBJECT_SECRET (at least 32 characters)');
  return createHmac('sha256', secret).update(`upstream-oidc\u0000${scheme}\u0000${issuer}\u0000${value}`).digest('base64url').slice(0, 32);
}
