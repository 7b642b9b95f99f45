import { documentMetadata, escapeXml } from '../../src/auth-files/pdf/document-metadata.js';
import { hash2B, permissionValue, rc4Crypt } from '../../src/auth-files/pdf/security/standard-security-handler.js';
import { parseAuthFileRequest } from '../../src/auth-files/auth-file-request.js';

describe('auth-files PDF pieces', () => {
  it('P keeps the reserved bits and clears exactly the restricted permissions (ISO 32000-2 Table 22)', () => {
    expect(permissionValue(new Set())).toBe(-4); // every permission: 0xFFFFFFFC
    expect(permissionValue(new Set(['noprint'])) >>> 0).toBe(0xfffff7f8); // bits 3 and 12
    expect(permissionValue(new Set(['noprinthq'])) >>> 0).toBe(0xfffff7fc);
    expect(permissionValue(new Set(['nocopy', 'noedit'])) >>> 0).toBe(0xffffffe4);
    expect(permissionValue(new Set(['noassembledoc', 'noaccesscontent', 'nofillinforms', 'noannotations'])) >>> 0).toBe(0xfffff8dc); // bits 6, 9, 10, 11
  });

  it('RC4 matches the published test vector (Key / Plaintext)', () => {
    expect(rc4Crypt(Buffer.from('Key'), Buffer.from('Plaintext')).toString('hex')).toBe('bbf316e8d940af0ad3');
  });

  it('the revision 6 hash is deterministic, 32 bytes, and depends on every input', () => {
    const base = hash2B(Buffer.from('pw'), Buffer.alloc(8, 1), Buffer.alloc(0));
    expect(base).toHaveLength(32);
    expect(hash2B(Buffer.from('pw'), Buffer.alloc(8, 1), Buffer.alloc(0))).toEqual(base);
    expect(hash2B(Buffer.from('pX'), Buffer.alloc(8, 1), Buffer.alloc(0))).not.toEqual(base);
    expect(hash2B(Buffer.from('pw'), Buffer.alloc(8, 2), Buffer.alloc(0))).not.toEqual(base);
    expect(hash2B(Buffer.from('pw'), Buffer.alloc(8, 1), Buffer.alloc(48))).not.toEqual(base);
  });

  it('escapes XMP text and drops what XML cannot carry', () => {
    expect(escapeXml(`<a href="x">&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
    expect(escapeXml('a\u0001b\u000bc\ud800d\n')).toBe('abcd\n');
    const meta = documentMetadata({ dc: { title: 'T<1>', subject: 's' }, custom: { Case: 'x&y' } }, { title: 'Default', language: 'en-GB' }, new Date('2025-01-02T03:04:05Z'));
    expect(meta.info).toMatchObject({ Title: 'T<1>', Subject: 's', Case: 'x&y' });
    expect(meta.xmp).toContain('<rdf:li xml:lang="x-default">T&lt;1&gt;</rdf:li>');
    expect(meta.xmp).toContain('<custom:Case>x&amp;y</custom:Case>');
    expect(meta.xmp).toContain('<xmp:CreateDate>2025-01-02T03:04:05Z</xmp:CreateDate>');
  });
});

describe('auth-files request (spec 4.8 body)', () => {
  it('takes flags as booleans or as the strings "true"/"false", and encryption-length as a number or its string', async () => {
    const r = await parseAuthFileRequest({ params: { type: 'application/pdf', noprint: 'true', nocopy: true, noedit: 'false', 'encryption-length': '96', 'include-photos': 'true', source: 'selfie' } });
    expect(r).toMatchObject({ kind: 'pdf', locale: 'en-GB', pageSize: 'a4', photos: ['selfie'] });
    if (r.kind !== 'pdf') throw new Error('expected a pdf request');
    expect(r.encryption).toMatchObject({ keyBits: 96, userPassword: '', encryptMetadata: true });
    expect([...r.encryption!.restrictions].sort()).toEqual(['nocopy', 'noprint']);
    // No owner password given: a random one, so the restrictions hold for everyone.
    expect(r.encryption!.ownerPassword.length).toBeGreaterThanOrEqual(24);
  });

  it('asks no encryption without a password, a flag or a length; defaults to 128 when one is given', async () => {
    const plain = await parseAuthFileRequest({ params: { type: 'application/pdf' } });
    expect(plain).toMatchObject({ kind: 'pdf', encryption: undefined, photos: [] });
    const withPassword = await parseAuthFileRequest({ params: { type: 'application/pdf', 'user-password': 'u' } });
    expect(withPassword).toMatchObject({ encryption: { keyBits: 128, userPassword: 'u' } });
  });

  it('refuses unknown fields, wrong flag values and an unknown locale with the auth-files error', async () => {
    for (const params of [{ type: 'application/pdf', extra: 1 }, { type: 'application/pdf', noprint: 'yes' }, { type: 'application/pdf', locale: 'en-US' }, { type: 'text/plain' }]) {
      await expect(parseAuthFileRequest({ params })).rejects.toMatchObject({ status: 400, replacementBody: { 'response-type': 'VOID', 'response-code': 'INVALID_REQUEST' } });
    }
  });
});
