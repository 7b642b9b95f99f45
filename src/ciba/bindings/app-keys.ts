import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

/** scrypt in libuv's thread pool: a check costs tens of milliseconds, which must never hold the event loop. */
const scryptAsync = promisify(scrypt) as (value: string, salt: Buffer, length: number) => Promise<Buffer>;

/**
 * Lookup keys for appIds and subjects: HMAC under SUBJECT_SECRET, so rows are found without storing the values
 * in clear and an appId (perhaps guessable) cannot be tested against the table without the key.
 */
export function lookupKey(secret: string, kind: 'app' | 'subject', value: string): string {
  return createHmac('sha256', secret).update(`ciba-${kind}:${value}`).digest('base64url');
}

/** Slow salted hash for short secrets people choose (user codes, app secrets): a database reader cannot try them all cheaply. */
export async function hashSecret(value: string): Promise<string> {
  const salt = randomBytes(16);
  return `${salt.toString('base64url')}.${(await scryptAsync(value, salt, 32)).toString('base64url')}`;
}

export async function secretMatches(value: string, stored: string | undefined): Promise<boolean> {
  if (!stored) return false;
  const [salt, hash] = stored.split('.');
  const expected = Buffer.from(hash ?? '', 'base64url');
  const actual = await scryptAsync(value, Buffer.from(salt ?? '', 'base64url'), 32);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
