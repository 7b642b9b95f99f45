/**
 * Chip Authentication evidence check (ICAO 9303-11 §6.2 / BSI TR-03110-1 §3.4, CA version 1 as used with
 * DG14): the terminal's ephemeral key and the chip's static key from DG14 agree on Z (ECDH x-coordinate or
 * DH value), session keys KSenc/KSmac = KDF(Z, 1/2) (9303-11 §9.7.1), and the first response the chip sends
 * under the new keys must carry a valid MAC. A clone without the DG14 private key cannot produce it.
 */
import { createECDH } from 'node:crypto';
import { Icao9303Error } from '../errors.js';
import type { Dg14 } from '../lds/dg14.js';
import type { ChipAuthenticationPublicKeyInfo } from '../lds/securityInfos.js';
import { toBuffer, toHex } from '../util/bytes.js';
import { deriveKey, type SmCipher } from '../sm/primitives.js';
import { SecureMessaging } from '../sm/secureMessaging.js';
import { dhSharedSecret } from './dh.js';

export interface ChipAuthEvidence {
  /** terminal ephemeral private key (EC scalar or DH exponent), big-endian */
  terminalPrivateKey: Uint8Array;
  /** a protected response APDU received after CA, under the new session keys */
  responseApdu: Uint8Array;
  /** send sequence counter value the chip used for that response (9303-11 §9.8.3) */
  ssc: Uint8Array;
  /** key to use when DG14 holds several (ChipAuthenticationInfo.keyId) */
  keyId?: number;
  /** cipher when DG14 has no ChipAuthenticationInfo; default 3DES (TR-03110 v1.11 CA without info) */
  cipher?: SmCipher;
}

export interface ChipAuthCheck {
  ok: boolean;
  cipher?: SmCipher;
  curve?: string;
  keyId?: number;
  sessionKeys?: { ksEnc: string; ksMac: string };
  problems: string[];
}

export function verifyChipAuthentication(dg14: Dg14, evidence: ChipAuthEvidence): ChipAuthCheck {
  const problems: string[] = [];
  const keys = dg14.chipAuthenticationPublicKeys.filter((k) => evidence.keyId === undefined || k.keyId === evidence.keyId);
  if (keys.length === 0) return { ok: false, problems: [`DG14 has no chip authentication public key${evidence.keyId === undefined ? '' : ` with keyId ${evidence.keyId}`} (9303-11 §9.2.6)`] };
  if (keys.length > 1) problems.push('several chip authentication keys and no keyId: the first is used (9303-11 §9.2.5)');
  const key = keys[0];
  const info = dg14.chipAuthenticationInfos.find((i) => i.keyId === key.keyId || (i.keyId === undefined && dg14.chipAuthenticationInfos.length === 1));
  const cipher: SmCipher = info && info.cipher !== 'unknown' ? info.cipher : evidence.cipher ?? '3DES';
  let z: Uint8Array;
  try {
    z = sharedSecret(key, evidence.terminalPrivateKey);
  } catch (e) {
    if (e instanceof Icao9303Error) return { ok: false, cipher, problems: [...problems, e.message] };
    return { ok: false, cipher, problems: [...problems, `key agreement failed: ${(e as Error).message}`] };
  }
  const ksEnc = deriveKey(z, 1, cipher);
  const ksMac = deriveKey(z, 2, cipher);
  let macOk = false;
  try {
    const sm = new SecureMessaging(cipher, ksEnc, ksMac, decrement(evidence.ssc));
    sm.unprotectResponse(evidence.responseApdu);
    macOk = true;
  } catch (e) {
    if (!(e instanceof Icao9303Error)) throw e;
    problems.push(`response under the derived session keys does not verify: ${e.message}`);
  }
  return { ok: macOk, cipher, curve: key.publicKey.curve, keyId: key.keyId, sessionKeys: { ksEnc: toHex(ksEnc), ksMac: toHex(ksMac) }, problems };
}

/** ECDH: x-coordinate of the shared point (TR-03111 §4.3.1 "ECKA", ICAO 9303-11 §9.7.1); DH: g^xy mod p. */
function sharedSecret(key: ChipAuthenticationPublicKeyInfo, terminalPrivate: Uint8Array): Uint8Array {
  const pk = key.publicKey;
  if (pk.kind === 'DH') return dhSharedSecret(pk.spki, terminalPrivate);
  if (pk.kind !== 'EC' || !pk.curve) throw new Icao9303Error('KEY_UNSUPPORTED', 'DG14.chipAuthenticationPublicKey', 'EC key on a curve OpenSSL does not know');
  const ecdh = createECDH(pk.curve);
  ecdh.setPrivateKey(toBuffer(terminalPrivate));
  return new Uint8Array(ecdh.computeSecret(toBuffer(pk.publicKeyBytes)));
}

/** unprotectResponse increments first, so start one below the recorded SSC. */
function decrement(ssc: Uint8Array): Uint8Array {
  const out = ssc.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    out[i] = (out[i] - 1) & 0xff;
    if (out[i] !== 0xff) break;
  }
  return out;
}

