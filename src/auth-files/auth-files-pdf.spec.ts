import { documentMetadata, escapeXml } from './pdf/document-metadata.js';
import { hash2B, permissionValue, rc4Crypt } from './pdf/security/standard-security-handler.js';
import { parseAuthFileRequest } from './auth-file-request.js';
import { jpegWithoutMetadata, photoForPdf } from './images/photo-files.js';
import jpeg from 'jpeg-js';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import { signatureBoxWidth, signerName } from './signing/signature-appearance.js';
import { sampleJpeg } from '../../test/support/auth-files-record.js';

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
    const meta = documentMetadata(
      { dc: { title: 'T<1>', subject: 's' }, custom: { Case: 'x&y' } },
      { title: 'Default', language: 'en-GB' },
      new Date('2025-01-02T03:04:05Z'),
    );
    expect(meta.info).toMatchObject({ Title: 'T<1>', Subject: 's', Case: 'x&y' });
    expect(meta.xmp).toContain('<rdf:li xml:lang="x-default">T&lt;1&gt;</rdf:li>');
    expect(meta.xmp).toContain('<custom:Case>x&amp;y</custom:Case>');
    expect(meta.xmp).toContain('<xmp:CreateDate>2025-01-02T03:04:05Z</xmp:CreateDate>');
  });
});

describe('auth-files request (spec 4.8 body)', () => {
  it('takes flags as booleans or as the strings "true"/"false", and encryption-length as a number or its string', async () => {
    const r = await parseAuthFileRequest({
      params: {
        type: 'application/pdf',
        noprint: 'true',
        nocopy: true,
        noedit: 'false',
        'encryption-length': '96',
        'include-photos': 'true',
        source: 'selfie',
      },
    });
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
    for (const params of [
      { type: 'application/pdf', extra: 1 },
      { type: 'application/pdf', noprint: 'yes' },
      { type: 'application/pdf', locale: 'en-US' },
      { type: 'text/plain' },
    ]) {
      await expect(parseAuthFileRequest({ params })).rejects.toMatchObject({
        status: 400,
        replacementBody: { 'response-type': 'VOID', 'response-code': 'INVALID_REQUEST' },
      });
    }
  });
});

describe('auth-files photos in the PDF', () => {
  /** A JPEG with an Exif segment (APP1) and a comment after its JFIF header, as phones write them. */
  const withExif = () => {
    const plain = sampleJpeg(300, 400);
    const segment = (marker: number, text: string) => {
      const body = Buffer.from(text, 'latin1');
      return Buffer.concat([Buffer.from([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 255]), body]);
    };
    const app0End = 4 + plain.readUInt16BE(4);
    return Buffer.concat([
      plain.subarray(0, app0End),
      segment(0xe1, 'Exif\0\0GPS 59.9139N 10.7522E'),
      segment(0xfe, 'shot on a phone'),
      plain.subarray(app0End),
    ]);
  };

  it('embeds a JPEG as it is but without its metadata segments (Exif, comments): the picture is unchanged', async () => {
    const source = withExif();
    const embedded = await photoForPdf(new Uint8Array(source));
    expect(source.toString('latin1')).toContain('GPS 59.9139N');
    expect(embedded.toString('latin1')).not.toContain('GPS 59.9139N');
    expect(embedded.toString('latin1')).not.toContain('shot on a phone');
    expect(embedded.subarray(0, 4).toString('hex')).toBe('ffd8ffe0');
    const a = jpeg.decode(source, { useTArray: true });
    const b = jpeg.decode(embedded, { useTArray: true });
    expect([b.width, b.height, Buffer.from(b.data).equals(Buffer.from(a.data))]).toEqual([300, 400, true]);
  });

  it('gives up on a broken marker structure (the caller then re-encodes)', () => {
    const good = withExif();
    expect(jpegWithoutMetadata(new Uint8Array(good))).toBeDefined();
    expect(jpegWithoutMetadata(new Uint8Array(good.subarray(0, 30)))).toBeUndefined();
    const broken = Buffer.from(good);
    broken[2] = 0x00;
    expect(jpegWithoutMetadata(new Uint8Array(broken))).toBeUndefined();
  });

  it('scales a frame larger than 1280 pixels down to print size', async () => {
    const large = await photoForPdf(new Uint8Array(sampleJpeg(1400, 1000)));
    const decoded = jpeg.decode(large);
    expect(Math.max(decoded.width, decoded.height)).toBe(600);
  });
});

describe('auth-files visible signature', () => {
  /** A self-signed certificate with this subject (EC P-256: quick to make). */
  const certificate = async (name: string) => {
    const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
    const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name,
      notBefore: new Date(),
      notAfter: new Date(Date.now() + 86400_000),
      keys: keys as never,
      signingAlgorithm: algorithm,
    });
    return Buffer.from(cert.rawData);
  };
  /** Every glyph half an em wide. */
  const font = { ref: () => undefined, encode: () => [[], []] as [string[], unknown], widthOfString: (text: string, size: number) => text.length * size * 0.5 };

  it('names the signer by its certificate’s common name, else by its whole subject', async () => {
    expect(signerName(await certificate('CN=Evidence signer, O=Example AS, C=NO'))).toBe('Evidence signer');
    expect(signerName(await certificate('O=Example AS, C=NO'))).toMatch(/^(O=Example AS, C=NO|C=NO, O=Example AS)$/);
  });

  it('makes the box at least the least width, wide enough for the lines at full size, and never wider than the most', () => {
    expect(signatureBoxWidth(['short'], font, 300, 495)).toBe(300);
    // 80 characters at 8 pt are 320 pt, plus padding.
    expect(signatureBoxWidth(['x'.repeat(80), 'y'], font, 300, 495)).toBe(331);
    expect(signatureBoxWidth(['x'.repeat(200)], font, 300, 495)).toBe(495);
  });
});
