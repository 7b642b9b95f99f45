/**
 * Basic Access Control (ICAO 9303-11 §4.3, key derivation §9.7.2, worked example Appendix D):
 * document basic access keys from the MRZ information, and the terminal side of mutual authentication.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Icao9303Error } from '../errors.js';
import { bytesEqual, concat } from '../util/bytes.js';
import { deriveKey, pad, retailMac, tdesDecrypt, tdesEncrypt } from './primitives.js';

export interface BacKeys {
  kSeed: Uint8Array;
  kEnc: Uint8Array;
  kMac: Uint8Array;
}

/** K_seed = first 16 bytes of SHA-1(MRZ_information); K_enc/K_mac = KDF(K_seed, 1/2) (9303-11 §9.7.2). */
export function deriveBacKeys(mrzInformation: string): BacKeys {
  const kSeed = new Uint8Array(createHash('sha1').update(mrzInformation, 'latin1').digest()).slice(0, 16);
  return { kSeed, kEnc: deriveKey(kSeed, 1, '3DES'), kMac: deriveKey(kSeed, 2, '3DES') };
}

export interface BacSessionKeys {
  ksEnc: Uint8Array;
  ksMac: Uint8Array;
  /** initial send sequence counter: RND.IC[4..8] || RND.IFD[4..8] (9303-11 §9.8.2) */
  ssc: Uint8Array;
}

export interface MutualAuthRequest {
  /** command data E_IFD || M_IFD for EXTERNAL AUTHENTICATE */
  commandData: Uint8Array;
  eIfd: Uint8Array;
  mIfd: Uint8Array;
}

/** Terminal step: S = RND.IFD || RND.IC || K.IFD, E_IFD = 3DES(K_enc, S), M_IFD = MAC(K_mac, E_IFD) (9303-11 §4.3.3.1). */
export function buildMutualAuth(
  keys: BacKeys,
  rndIc: Uint8Array,
  rndIfd: Uint8Array = randomBytes(8),
  kIfd: Uint8Array = randomBytes(16),
): MutualAuthRequest & { rndIfd: Uint8Array; kIfd: Uint8Array } {
  const s = concat(rndIfd, rndIc, kIfd);
  const eIfd = tdesEncrypt(keys.kEnc, s);
  const mIfd = retailMac(keys.kMac, pad(eIfd));
  return { commandData: concat(eIfd, mIfd), eIfd, mIfd, rndIfd: new Uint8Array(rndIfd), kIfd: new Uint8Array(kIfd) };
}

/** Terminal step 2: verify M_IC, decrypt R = RND.IC || RND.IFD || K.IC, derive session keys (9303-11 §4.3.3.2, §9.7.2). */
export function completeMutualAuth(keys: BacKeys, response: Uint8Array, rndIc: Uint8Array, rndIfd: Uint8Array, kIfd: Uint8Array): BacSessionKeys {
  if (response.length !== 40) throw new Icao9303Error('SECURE_MESSAGING', 'EXTERNAL AUTHENTICATE response', `expected 40 bytes, got ${response.length}`);
  const eIc = response.subarray(0, 32);
  if (!bytesEqual(retailMac(keys.kMac, pad(eIc)), response.subarray(32)))
    throw new Icao9303Error('SECURE_MESSAGING', 'M_IC', 'MAC of the chip response is wrong');
  const r = tdesDecrypt(keys.kEnc, eIc);
  if (!bytesEqual(r.subarray(0, 8), rndIc) || !bytesEqual(r.subarray(8, 16), rndIfd))
    throw new Icao9303Error('SECURE_MESSAGING', 'RND.IFD', 'chip did not return our nonces');
  return sessionKeys(kIfd, r.subarray(16, 32), rndIc, rndIfd);
}

export function sessionKeys(kIfd: Uint8Array, kIc: Uint8Array, rndIc: Uint8Array, rndIfd: Uint8Array): BacSessionKeys {
  const seed = kIfd.map((b, i) => b ^ kIc[i]);
  return { ksEnc: deriveKey(seed, 1, '3DES'), ksMac: deriveKey(seed, 2, '3DES'), ssc: concat(rndIc.subarray(4, 8), rndIfd.subarray(4, 8)) };
}
