import { randomBytes } from 'node:crypto';
import { SecretBox, SecretBoxError } from './secret-box.js';
import { constantTimeEqual } from './constant-time.js';

describe('SecretBox (AES-256-GCM at rest)', () => {
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);
  const box = new SecretBox('k1', new Map([['k1', k1]]));

  it('round-trips and never shows the plaintext', () => {
    const sealed = box.encrypt('the secret', 'ctx');
    expect(sealed).not.toContain('the secret');
    expect(sealed.startsWith('v1.k1.')).toBe(true);
    expect(box.decryptText(sealed, 'ctx')).toBe('the secret');
    expect(box.encrypt('the secret', 'ctx')).not.toBe(sealed);
  });

  it('refuses a value moved to another context, a tampered value and an unknown key', () => {
    const sealed = box.encrypt('the secret', 'merchant-secret:a');
    expect(() => box.decrypt(sealed, 'merchant-secret:b')).toThrow(SecretBoxError);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4], 'base64url');
    body[0] ^= 1;
    parts[4] = body.toString('base64url');
    expect(() => box.decrypt(parts.join('.'), 'merchant-secret:a')).toThrow('failed authentication');
    const other = new SecretBox('k2', new Map([['k2', k2]]));
    expect(() => other.decrypt(sealed, 'merchant-secret:a')).toThrow('not configured');
    expect(() => box.decrypt('garbage', 'x')).toThrow(SecretBoxError);
  });

  it('reads values sealed with an old key after rotation and seals new ones with the current key', () => {
    const sealed = box.encrypt('old data', 'ctx');
    const rotated = new SecretBox(
      'k2',
      new Map([
        ['k1', k1],
        ['k2', k2],
      ]),
    );
    expect(rotated.decryptText(sealed, 'ctx')).toBe('old data');
    expect(rotated.keyIdOf(rotated.encrypt('new', 'ctx'))).toBe('k2');
  });

  it('refuses keys of the wrong size', () => {
    expect(() => new SecretBox('k', new Map([['k', randomBytes(16)]]))).toThrow('not 32 bytes');
  });

  it('compares secrets by value', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });
});
