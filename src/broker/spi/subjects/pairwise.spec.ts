import { createHmac } from 'node:crypto';
import { merchantSector, pairwiseSubject } from './pairwise.js';

describe('pairwise subjects (OIDC Core §8.1)', () => {
  const secret = 'p'.repeat(64);

  it('is the HMAC-SHA256 of sector and subject under the secret, base64url: the same person in the same sector, the same value', () => {
    const expected = createHmac('sha256', secret).update('shop.example:person-1').digest('base64url');
    expect(pairwiseSubject(secret, 'shop.example', 'person-1')).toBe(expected);
    expect(pairwiseSubject(secret, 'shop.example', 'person-1')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('differs by sector, by person and by secret, so two merchants cannot join their users', () => {
    const subject = pairwiseSubject(secret, 'shop.example', 'person-1');
    expect(pairwiseSubject(secret, 'other.example', 'person-1')).not.toBe(subject);
    expect(pairwiseSubject(secret, 'shop.example', 'person-2')).not.toBe(subject);
    expect(pairwiseSubject('q'.repeat(64), 'shop.example', 'person-1')).not.toBe(subject);
  });

  it("takes a merchant's sector from its first redirect URI's host, port included", () => {
    expect(merchantSector(['https://shop.example/cb', 'https://other.example/cb'])).toBe('shop.example');
    expect(merchantSector(['http://localhost:8400/callback'])).toBe('localhost:8400');
    expect(() => merchantSector(['not a url'])).toThrow();
  });
});
