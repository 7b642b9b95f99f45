import { createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/**
 * Lookup keys for appIds and subjects: HMAC under SUBJECT_SECRET, so rows are found without storing the values
 * in clear and an appId (perhaps guessable) cannot be tested against the table without the key.
 */
export function lookupKey(secret: string, kind: 'app' | 'subject', value: string): string {
  return createHmac('sha256', secret).update(`ciba-${kind}:${value}`).digest('base64url');
}

/** Slow salted hash for short secrets people choose (user codes, app secrets): a database reader cannot try them all cheaply. */
export function hashSecret(value: string): string {
  const salt = randomBytes(16);
  return `${salt.toString('base64url')}.${scryptSync(value, salt, 32).toString('base64url')}`;
}

export function secretMatches(value: string, stored: string | undefined): boolean {
  if (!stored) return false;
  const [salt, hash] = stored.split('.');
  const expected = Buffer.from(hash ?? '', 'base64url');
  const actual = scryptSync(value, Buffer.from(salt ?? '', 'base64url'), 32);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
