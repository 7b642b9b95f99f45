/**
 * ISO/IEC 9796-2:2010 digital signature scheme 1 (message recovery) as used by RSA Active Authentication
 * (ICAO 9303-11 §6.1.2). Trailer 0xBC = implicit hash (SHA-1 unless agreed otherwise); trailer 0x?? 0xCC
 * names the hash with its ISO/IEC 10118-3 identifier.
 */
import { constants, createHash, privateEncrypt, publicDecrypt, randomBytes, type KeyObject } from 'node:crypto';
import { bytesEqual, concat, toBuffer } from '../util/bytes.js';

/** ISO/IEC 10118-3 hash-function identifiers used in the two-byte trailer (ISO/IEC 9796-2 §B.1). */
const HASH_IDS: Record<number, string> = { 0x33: 'sha1', 0x34: 'sha256', 0x35: 'sha512', 0x36: 'sha384', 0x38: 'sha224' };
const ID_BY_HASH: Record<string, number> = Object.fromEntries(Object.entries(HASH_IDS).map(([id, h]) => [h, Number(id)]));
const HASH_LEN: Record<string, number> = { sha1: 20, sha224: 28, sha256: 32, sha384: 48, sha512: 64 };

export interface Iso9796Recovery {
  ok: boolean;
  hash?: string;
  /** recoverable message part M1 */
  recovered?: Uint8Array;
  partialRecovery?: boolean;
  problem?: string;
}

/** Opens an RSA signature with the public key (s^e mod n) and checks it against the non-recoverable part M2. */
export function verifyIso9796Scheme1(key: KeyObject, signature: Uint8Array, m2: Uint8Array, implicitHash = 'sha1'): Iso9796Recovery {
  let f: Uint8Array;
  try {
    f = new Uint8Array(publicDecrypt({ key, padding: constants.RSA_NO_PADDING }, toBuffer(signature)));
  } catch {
    return { ok: false, problem: 'RSA public operation failed (signature not smaller than the modulus?)' };
  }
  // Header: leftmost bits '01', then the "more data" bit (partial recovery), then padding ending in 'A' (§8.1.1)
  if ((f[0] & 0xc0) !== 0x40) return { ok: false, problem: 'header bits are not 01 (ISO/IEC 9796-2 §8.1.1)' };
  const partial = (f[0] & 0x20) !== 0;
  let hash: string;
  let t: number;
  if (f[f.length - 1] === 0xbc) {
    hash = implicitHash;
    t = 1;
  } else if (f[f.length - 1] === 0xcc && HASH_IDS[f[f.length - 2]]) {
    hash = HASH_IDS[f[f.length - 2]];
    t = 2;
  } else {
    return { ok: false, problem: 'unknown trailer (ISO/IEC 9796-2 §8.1.2)' };
  }
  const hLen = HASH_LEN[hash];
  const digest = f.subarray(f.length - t - hLen, f.length - t);
  // Padding field (§8.1.1): header nibble followed by 'A', or 'B' nibbles (0xBB…) ending with 0xBA
  let start = 1;
  if ((f[0] & 0x0f) === 0x0b) {
    while (start < f.length && f[start] === 0xbb) start++;
    if (f[start] !== 0xba) return { ok: false, problem: 'padding field not terminated by 0xBA (ISO/IEC 9796-2 §8.1.1)' };
    start++;
  } else if ((f[0] & 0x0f) !== 0x0a) {
    return { ok: false, problem: 'padding field does not end with nibble A (ISO/IEC 9796-2 §8.1.1)' };
  }
  if (start > f.length - t - hLen) return { ok: false, problem: 'no room for the digest' };
  const m1 = f.subarray(start, f.length - t - hLen);
  const expected = createHash(hash)
    .update(partial ? concat(m1, m2) : m1)
    .digest();
  const ok = bytesEqual(new Uint8Array(expected), digest) && (partial || bytesEqual(m1, m2));
  return { ok, hash, recovered: m1.slice(), partialRecovery: partial, ...(ok ? {} : { problem: 'hash of M1||M2 does not match the recovered digest' }) };
}

/**
 * Produces an ISO/IEC 9796-2 scheme 1 signature with partial recovery (the chip side of 9303-11 §6.1.2):
 * F = 6A || M1 || H(M1||M2) || trailer, s = F^d mod n. SHA-1 uses the implicit 0xBC trailer.
 */
export function signIso9796Scheme1(privateKey: KeyObject, modulusBytes: number, m2: Uint8Array, hash = 'sha1', m1?: Uint8Array): Uint8Array {
  const hLen = HASH_LEN[hash];
  const t = hash === 'sha1' ? 1 : 2;
  const recover = m1 ?? new Uint8Array(randomBytes(modulusBytes - hLen - t - 1));
  const digest = new Uint8Array(createHash(hash).update(concat(recover, m2)).digest());
  const trailer = t === 1 ? new Uint8Array([0xbc]) : new Uint8Array([ID_BY_HASH[hash], 0xcc]);
  const f = concat(new Uint8Array([0x6a]), recover, digest, trailer);
  return new Uint8Array(privateEncrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, toBuffer(f)));
}
