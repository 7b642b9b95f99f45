import { upstreamSubject } from './upstream-subject.js';

describe('upstream subject', () => {
  const secret = 'a'.repeat(32);

  it('hashed: stable, keyed, and different per scheme and per issuer', () => {
    const sub = upstreamSubject(secret, 'bankid', 'https://a.example', 'hashed', '07038512345');
    expect(sub).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(sub).not.toContain('07038512345');
    expect(upstreamSubject(secret, 'bankid', 'https://a.example', 'hashed', '07038512345')).toBe(sub);
    expect(upstreamSubject(secret, 'freja', 'https://a.example', 'hashed', '07038512345')).not.toBe(sub);
    expect(upstreamSubject(secret, 'bankid', 'https://b.example', 'hashed', '07038512345')).not.toBe(sub);
    expect(upstreamSubject('b'.repeat(32), 'bankid', 'https://a.example', 'hashed', '07038512345')).not.toBe(sub);
    expect(() => upstreamSubject('short', 'bankid', 'https://a.example', 'hashed', 'x')).toThrow(RangeError);
  });

  it('upstream: the value behind the scheme id, so two schemes never share a sub', () => {
    expect(upstreamSubject(secret, 'bankid', 'https://a.example', 'upstream', 'u-1')).toBe('bankid:u-1');
  });
});
