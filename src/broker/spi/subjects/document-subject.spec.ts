import { createHash, randomBytes } from 'node:crypto';
import { documentSubject, transactionSubject } from './document-subject.js';

const secret = () => randomBytes(32).toString('base64url');

describe('document subjects', () => {
  it('are keyed: the same document gives the same sub under one secret and another under another', () => {
    const a = secret();
    const b = secret();
    expect(documentSubject(a, 'document-verifier', 'NOR', 'FH7654321')).toBe(documentSubject(a, 'document-verifier', 'NOR', 'FH7654321'));
    expect(documentSubject(a, 'document-verifier', 'NOR', 'FH7654321')).not.toBe(documentSubject(b, 'document-verifier', 'NOR', 'FH7654321'));
  });

  it('tell documents and schemes apart', () => {
    const key = secret();
    const subs = new Set([
      documentSubject(key, 'document-verifier', 'NOR', 'FH7654321'),
      documentSubject(key, 'document-verifier', 'NOR', 'FH7654322'),
      documentSubject(key, 'document-verifier', 'SWE', 'FH7654321'),
      documentSubject(key, 'test', 'NOR', 'FH7654321'),
    ]);
    expect(subs.size).toBe(4);
  });

  it('are not the old unkeyed SHA-256 of state and number (recoverable by brute force)', () => {
    const unkeyed = createHash('sha256').update('document-verifier:NOR:FH7654321').digest('base64url').slice(0, 32);
    expect(documentSubject(secret(), 'document-verifier', 'NOR', 'FH7654321')).not.toBe(unkeyed);
  });

  it('refuses a missing or short secret rather than fall back to an unkeyed hash', () => {
    expect(() => documentSubject('', 'document-verifier', 'NOR', 'FH7654321')).toThrow();
    expect(() => documentSubject('short', 'document-verifier', 'NOR', 'FH7654321')).toThrow();
  });

  it('gives a failed transaction a fresh random subject each time, unlike any document subject', () => {
    const one = transactionSubject();
    expect(one).not.toBe(transactionSubject());
    expect(one).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});
