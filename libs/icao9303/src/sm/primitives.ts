/**
 * Symmetric primitives for BAC / secure messaging (ICAO 9303-11 §9.7–9.8): ISO/IEC 9797-1 padding method 2,
 * 3DES-CBC with zero IV, ISO/IEC 9797-1 MAC algorithm 3 ("retail MAC") with DES, AES-CBC and AES-CMAC
 * (NIST SP 800-38B), and the key derivation function of 9303-11 §9.7.1.
 */
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { Icao9303Error } from '../errors.js';
import { concat, toBuffer } from '../util/bytes.js';

/** ISO/IEC 9797-1 padding method 2: 0x80 then zeros up to the block size. */
export function pad(data: Uint8Array, blockSize = 8): Uint8Array {
  const len = (Math.floor(data.length / blockSize) + 1) * blockSize;
  const out = new Uint8Array(len);
  out.set(data);
  out[data.length] = 0x80;
  return out;
}

export function unpad(data: Uint8Array): Uint8Array {
  let i = data.length - 1;
  while (i >= 0 && data[i] === 0x00) i--;
  if (i < 0 || data[i] !== 0x80) throw new Icao9303Error('SECURE_MESSAGING', 'padding', 'ISO/IEC 9797-1 method 2 padding not found');
  return data.subarray(0, i);
}

function run(alg: string, key: Uint8Array, iv: Uint8Array | null, data: Uint8Array, encrypt: boolean): Uint8Array {
  const c = encrypt ? createCipheriv(alg, toBuffer(key), iv && toBuffer(iv)) : createDecipheriv(alg, toBuffer(key), iv && toBuffer(iv));
  c.setAutoPadding(false);
  return new Uint8Array(Buffer.concat([c.update(toBuffer(data)), c.final()]));
}

const ZERO8 = new Uint8Array(8);

/** Two-key 3DES in CBC mode with zero IV (9303-11 §9.8.6.1). */
export function tdesEncrypt(key16: Uint8Array, data: Uint8Array, iv: Uint8Array = ZERO8): Uint8Array {
  return run('des-ede-cbc', key16, iv, data, true);
}

export function tdesDecrypt(key16: Uint8Array, data: Uint8Array, iv: Uint8Array = ZERO8): Uint8Array {
  return run('des-ede-cbc', key16, iv, data, false);
}

/**
 * ISO/IEC 9797-1 MAC algorithm 3 with DES, input already padded (9303-11 §9.8.6.2): single-DES CBC-MAC with
 * Ka over all blocks, final block additionally decrypted with Kb and encrypted with Ka (= 3DES EDE on it).
 */
export function retailMac(key16: Uint8Array, paddedData: Uint8Array): Uint8Array {
  if (paddedData.length % 8 !== 0) throw new Icao9303Error('SECURE_MESSAGING', 'MAC input', 'not a multiple of 8 bytes');
  const ka = key16.subarray(0, 8);
  // Single DES as 3DES with K1 = K2 (OpenSSL 3 has no plain DES without the legacy provider)
  const singleKey = concat(ka, ka);
  let h: Uint8Array = ZERO8;
  const n = paddedData.length / 8;
  if (n > 1) h = run('des-ede-cbc', singleKey, ZERO8, paddedData.subarray(0, (n - 1) * 8), true).subarray((n - 2) * 8);
  const last = paddedData.subarray((n - 1) * 8).map((b, i) => b ^ h[i]);
  return run('des-ede-ecb', key16, null, last, true);
}

export function aesEncrypt(key: Uint8Array, data: Uint8Array, iv: Uint8Array): Uint8Array {
  return run(`aes-${key.length * 8}-cbc`, key, iv, data, true);
}

export function aesDecrypt(key: Uint8Array, data: Uint8Array, iv: Uint8Array): Uint8Array {
  return run(`aes-${key.length * 8}-cbc`, key, iv, data, false);
}

export function aesEcb(key: Uint8Array, block: Uint8Array): Uint8Array {
  return run(`aes-${key.length * 8}-ecb`, key, null, block, true);
}

/** AES-CMAC (NIST SP 800-38B / RFC 4493), full 16-byte tag; SM truncates to 8 bytes (9303-11 §9.8.6.2). */
export function aesCmac(key: Uint8Array, message: Uint8Array): Uint8Array {
  const l = aesEcb(key, new Uint8Array(16));
  const k1 = shiftXor(l);
  const k2 = shiftXor(k1);
  const n = Math.max(1, Math.ceil(message.length / 16));
  const complete = message.length > 0 && message.length % 16 === 0;
  const lastBlock = new Uint8Array(16);
  if (complete) lastBlock.set(message.subarray((n - 1) * 16));
  else {
    const rest = message.subarray((n - 1) * 16);
    lastBlock.set(rest);
    lastBlock[rest.length] = 0x80;
  }
  const sub = complete ? k1 : k2;
  const mLast = lastBlock.map((b, i) => b ^ sub[i]);
  let x: Uint8Array = new Uint8Array(16);
  for (let i = 0; i < n - 1; i++)
    x = aesEcb(
      key,
      message.subarray(i * 16, i * 16 + 16).map((b, j) => b ^ x[j]),
    );
  return aesEcb(
    key,
    mLast.map((b, j) => b ^ x[j]),
  );
}

function shiftXor(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = ((b[i] << 1) | (i < 15 ? b[i + 1] >> 7 : 0)) & 0xff;
  if (b[0] & 0x80) out[15] ^= 0x87;
  return out;
}

/** DES keys carry odd parity in bit 0 of each byte (FIPS 46-3); 9303-11 App. D shows adjusted keys. */
export function adjustParity(key: Uint8Array): Uint8Array {
  return key.map((b) => {
    let ones = 0;
    for (let i = 1; i < 8; i++) ones += (b >> i) & 1;
    return (b & 0xfe) | (ones % 2 === 0 ? 1 : 0);
  });
}

export type SmCipher = '3DES' | 'AES-128' | 'AES-192' | 'AES-256';

/** KDF(K, c) = H(K || c) (9303-11 §9.7.1): SHA-1 for 3DES and AES-128, SHA-256 for AES-192/256. */
export function deriveKey(secret: Uint8Array, counter: 1 | 2 | 3, cipher: SmCipher): Uint8Array {
  const c = new Uint8Array([0, 0, 0, counter]);
  const hash = cipher === 'AES-192' || cipher === 'AES-256' ? 'sha256' : 'sha1';
  const h = new Uint8Array(createHash(hash).update(concat(secret, c)).digest());
  if (cipher === '3DES') return adjustParity(h.subarray(0, 16));
  return h.slice(0, cipher === 'AES-128' ? 16 : cipher === 'AES-192' ? 24 : 32);
}
