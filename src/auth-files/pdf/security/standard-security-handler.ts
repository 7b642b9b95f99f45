/**
 * The PDF standard security handler (ISO 32000-2 §7.6.4), written for what spec 4.8 asks and pdfkit lacks:
 * pdfkit offers RC4 40 (R2) and 128 (R3) and AES-256 in the deprecated revision 5 only, never the RC4 key
 * lengths 48-120 nor EncryptMetadata false. We plug into pdfkit's one encryption hook instead of forking it:
 * a document's `_security` object is asked `getEncryptFn(objectNumber, generation)` for every indirect object
 * it writes, its `dictionary` reference becomes the trailer's /Encrypt and `end()` is called at the end
 * (pdfkit's PDFSecurity has exactly this shape; see node_modules/pdfkit/js/pdfkit.js, class PDFSecurity).
 *
 * What we write:
 * - RC4, 40..128 bits in steps of 8: V 2, R 3 (every one of the nine permission bits is defined from R 3 on;
 *   R 2 knows only four, so 40 bits also uses R 3, which ISO 32000 allows);
 * - RC4 128 with encrypt-metadata false: V 4, R 4 with a /V2 (RC4) crypt filter, since /EncryptMetadata exists
 *   only from V 4 on. Shorter RC4 keys cannot go there: ISO 32000 defines /Length only for V 2 and 3, and qpdf
 *   reads every V 4 key as 128 bits (poppler takes the crypt filter's length), so such a file would open in one
 *   reader and not in another; the request validation refuses that combination (see auth-file-request.ts);
 * - AES-256: V 5, R 6 (ISO 32000-2, algorithms 2.A, 2.B, 8, 9, 10), with or without metadata encryption.
 * The metadata stream is left in clear text when encrypt-metadata is false; nothing else ever is.
 */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import type { PermissionFlag } from '../../dto/fetch-auth-file.dto.js';

export interface EncryptionSettings {
  userPassword: string;
  ownerPassword: string;
  /** 40..128 step 8 (RC4) or 256 (AES-256). */
  keyBits: number;
  /** The spec 4.8 flags that are set (each one takes a permission away). */
  restrictions: ReadonlySet<PermissionFlag>;
  encryptMetadata: boolean;
}

/** The part of a pdfkit document the handler uses (pdfkit's own, undocumented, members). */
export interface PdfKitInternals {
  _id: Uint8Array;
  _security: unknown;
  _root: { data: Record<string, unknown> };
  metadataRef?: { id: number };
  ref(data: Record<string, unknown>): { id: number; end(): void };
}

const PASSWORD_PADDING = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

/** Permission bits (ISO 32000-2 Table 22, bit 1 is the lowest) that each spec 4.8 flag clears. */
const CLEARED_BITS: Record<PermissionFlag, number[]> = {
  noprint: [3, 12],
  noprinthq: [12],
  noedit: [4],
  nocopy: [5],
  noannotations: [6],
  nofillinforms: [9],
  noaccesscontent: [10],
  noassembledoc: [11],
};

/** P as the signed 32-bit integer PDF stores: every permission granted except those restricted; reserved bits as required. */
export function permissionValue(restrictions: ReadonlySet<PermissionFlag>): number {
  let p = 0xfffff0c0 | 0b1111_0011_1100;
  for (const flag of restrictions) for (const bit of CLEARED_BITS[flag]) p &= ~(1 << (bit - 1));
  return p | 0;
}

/** Installs the handler on a pdfkit document created without passwords, before its first object is written. */
export function installSecurityHandler(doc: PdfKitInternals, settings: EncryptionSettings): void {
  const { keyBits } = settings;
  if (!(keyBits === 256 || (keyBits >= 40 && keyBits <= 128 && keyBits % 8 === 0))) throw new RangeError(`unsupported key length ${keyBits}`);
  if (!settings.encryptMetadata && keyBits !== 128 && keyBits !== 256) throw new RangeError('clear-text metadata needs a 128-bit RC4 or a 256-bit AES key');
  // A random file identifier: pdfkit's is a hash of the creation date and info, guessable and shared by equal inputs.
  doc._id = new Uint8Array(randomBytes(16));
  const { dictionary, fileKey } = keyBits === 256 ? aes256Revision6(settings) : rc4(settings, Buffer.from(doc._id));
  if (keyBits === 256) doc._root.data.Extensions = { ADBE: { BaseVersion: '1.7', ExtensionLevel: 8 } };
  const encryptRef = doc.ref(dictionary);
  const objectCipher = keyBits === 256 ? aesObjectCipher(fileKey) : rc4ObjectCipher(fileKey);
  doc._security = {
    dictionary: encryptRef,
    getEncryptFn(objectNumber: number, generation: number) {
      if (objectNumber === encryptRef.id) return null;
      if (!settings.encryptMetadata && objectNumber === doc.metadataRef?.id) return null;
      return objectCipher(objectNumber, generation);
    },
    end() {
      encryptRef.end();
    },
  };
}

type Encryptor = (data: Uint8Array) => Uint8Array;

// ---- RC4 (algorithms 1, 2, 3, 5 of ISO 32000-2 §7.6.4.3) ----

function rc4(settings: EncryptionSettings, id: Buffer): { dictionary: Record<string, unknown>; fileKey: Buffer } {
  const n = settings.keyBits / 8;
  const revision = settings.encryptMetadata ? 3 : 4;
  const P = permissionValue(settings.restrictions);
  const user = padPassword(settings.userPassword);
  const owner = padPassword(settings.ownerPassword);
  // Algorithm 3: O from the owner password.
  let digest = md5(owner);
  for (let i = 0; i < 50; i++) digest = md5(digest.subarray(0, n));
  const ownerKey = digest.subarray(0, n);
  let O = user;
  for (let i = 0; i < 20; i++) O = rc4Crypt(xorKey(ownerKey, i), O);
  // Algorithm 2: the file key.
  const p = Buffer.alloc(4);
  p.writeInt32LE(P);
  let key = md5(Buffer.concat([user, O, p, id, revision >= 4 && !settings.encryptMetadata ? Buffer.from([0xff, 0xff, 0xff, 0xff]) : Buffer.alloc(0)])).subarray(
    0,
    n,
  );
  for (let i = 0; i < 50; i++) key = md5(key).subarray(0, n);
  // Algorithm 5: U (16 significant bytes, padded to 32).
  let U = md5(Buffer.concat([PASSWORD_PADDING, id]));
  for (let i = 0; i < 20; i++) U = rc4Crypt(xorKey(key, i), U);
  const dictionary: Record<string, unknown> = {
    Filter: 'Standard',
    V: revision === 4 ? 4 : 2,
    R: revision,
    Length: settings.keyBits,
    O: new Uint8Array(O),
    U: new Uint8Array(Buffer.concat([U, Buffer.alloc(16)])),
    P,
  };
  if (revision === 4) {
    dictionary.CF = { StdCF: { CFM: 'V2', AuthEvent: 'DocOpen', Length: n } };
    dictionary.StmF = 'StdCF';
    dictionary.StrF = 'StdCF';
    dictionary.EncryptMetadata = false;
  }
  return { dictionary, fileKey: key };
}

/** Algorithm 1: each object has its own RC4 key from the file key, its number and generation. */
function rc4ObjectCipher(fileKey: Buffer): (objectNumber: number, generation: number) => Encryptor {
  return (objectNumber, generation) => {
    const suffix = Buffer.from([objectNumber & 0xff, (objectNumber >> 8) & 0xff, (objectNumber >> 16) & 0xff, generation & 0xff, (generation >> 8) & 0xff]);
    const key = md5(Buffer.concat([fileKey, suffix])).subarray(0, Math.min(fileKey.length + 5, 16));
    return (data) => new Uint8Array(rc4Crypt(key, data));
  };
}

/** Passwords of R 2-4 are PDFDocEncoding bytes, cut or padded to 32 (callers refuse characters above U+00FF). */
function padPassword(password: string): Buffer {
  const bytes = Buffer.from(password, 'latin1').subarray(0, 32);
  return Buffer.concat([bytes, PASSWORD_PADDING.subarray(0, 32 - bytes.length)]);
}

function xorKey(key: Buffer, i: number): Buffer {
  return Buffer.from(key.map((b) => b ^ i));
}

function md5(data: Uint8Array): Buffer {
  return createHash('md5').update(data).digest();
}

/** RC4 itself: OpenSSL 3 keeps it in the legacy provider, which Node does not load, so it is done here. */
export function rc4Crypt(key: Uint8Array, data: Uint8Array): Buffer {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
    out[k] = data[k] ^ s[(s[i] + s[j]) & 0xff];
  }
  return out;
}

// ---- AES-256, revision 6 (algorithms 2.A, 2.B, 8, 9, 10 of ISO 32000-2) ----

function aes256Revision6(settings: EncryptionSettings): { dictionary: Record<string, unknown>; fileKey: Buffer } {
  const fileKey = randomBytes(32);
  const user = saslPassword(settings.userPassword);
  const owner = saslPassword(settings.ownerPassword);
  const P = permissionValue(settings.restrictions);
  // Algorithm 8: U and UE.
  const uValidation = randomBytes(8);
  const uKeySalt = randomBytes(8);
  const U = Buffer.concat([hash2B(user, uValidation, Buffer.alloc(0)), uValidation, uKeySalt]);
  const UE = aesNoPadding('aes-256-cbc', hash2B(user, uKeySalt, Buffer.alloc(0)), fileKey);
  // Algorithm 9: O and OE, bound to U.
  const oValidation = randomBytes(8);
  const oKeySalt = randomBytes(8);
  const O = Buffer.concat([hash2B(owner, oValidation, U), oValidation, oKeySalt]);
  const OE = aesNoPadding('aes-256-cbc', hash2B(owner, oKeySalt, U), fileKey);
  // Algorithm 10: Perms, the permissions sealed under the file key (readers check P against it).
  const perms = Buffer.alloc(16);
  perms.writeInt32LE(P, 0);
  perms.writeUInt32LE(0xffffffff, 4);
  perms.write(settings.encryptMetadata ? 'T' : 'F', 8, 'latin1');
  perms.write('adb', 9, 'latin1');
  randomBytes(4).copy(perms, 12);
  const Perms = aesNoPadding('aes-256-ecb', fileKey, perms);
  const dictionary: Record<string, unknown> = {
    Filter: 'Standard',
    V: 5,
    R: 6,
    Length: 256,
    CF: { StdCF: { CFM: 'AESV3', AuthEvent: 'DocOpen', Length: 32 } },
    StmF: 'StdCF',
    StrF: 'StdCF',
    O: new Uint8Array(O),
    U: new Uint8Array(U),
    OE: new Uint8Array(OE),
    UE: new Uint8Array(UE),
    P,
    Perms: new Uint8Array(Perms),
  };
  if (!settings.encryptMetadata) dictionary.EncryptMetadata = false;
  return { dictionary, fileKey };
}

/** AES-256-CBC under the file key, a fresh random IV per string or stream (prefixed, as §7.6.3 asks). */
function aesObjectCipher(fileKey: Buffer): () => Encryptor {
  return () => (data) => {
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-cbc', fileKey, iv);
    return new Uint8Array(Buffer.concat([iv, cipher.update(data), cipher.final()]));
  };
}

/**
 * R 6 passwords: SASLprep, UTF-8, at most 127 bytes. We apply its normalisation (NFKC) and mapping of
 * non-ASCII spaces; the request validation has already refused control characters, which SASLprep prohibits.
 */
function saslPassword(password: string): Buffer {
  const mapped = password.replace(/[\u00a0\u1680\u2000-\u200b\u202f\u205f\u3000]/g, ' ').replace(/[\u00ad\u200c\u200d\u2060\ufeff]/g, '');
  return cutUtf8(Buffer.from(mapped.normalize('NFKC'), 'utf8'), 127);
}

/** Cuts at a character boundary so the password stays valid UTF-8. */
function cutUtf8(bytes: Buffer, max: number): Buffer {
  if (bytes.length <= max) return bytes;
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/** Algorithm 2.B: the hash of revision 6, SHA-256/384/512 chosen by the data, at least 64 rounds of AES-128. */
export function hash2B(password: Buffer, salt: Buffer, userKey: Buffer): Buffer {
  let k = createHash('sha256')
    .update(Buffer.concat([password, salt, userKey]))
    .digest();
  let e: Buffer = Buffer.alloc(1);
  for (let round = 0; round < 64 || e[e.length - 1] > round - 32; round++) {
    const block = Buffer.concat([password, k, userKey]);
    const k1 = Buffer.concat(new Array<Buffer>(64).fill(block));
    e = aesNoPadding('aes-128-cbc', k.subarray(0, 16), k1, k.subarray(16, 32));
    // The first 16 bytes of E as a big-endian number, mod 3: since 256 ≡ 1 (mod 3), the sum of the bytes mod 3.
    const selector = e.subarray(0, 16).reduce((sum, b) => sum + b, 0) % 3;
    k = createHash(['sha256', 'sha384', 'sha512'][selector]).update(e).digest();
  }
  return k.subarray(0, 32);
}

function aesNoPadding(
  algorithm: 'aes-256-cbc' | 'aes-128-cbc' | 'aes-256-ecb',
  key: Uint8Array,
  data: Uint8Array,
  iv: Uint8Array | null = Buffer.alloc(16),
): Buffer {
  const cipher = createCipheriv(algorithm, key, algorithm === 'aes-256-ecb' ? null : iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}
