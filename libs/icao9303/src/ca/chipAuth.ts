/**
 * Chip Authentication version 1 (ICAO 9303-11 §6.2 / BSI TR-03110-1 §3.4, keys in DG14), terminal side.
 *
 * The verifier is the terminal: it picks the chip's static key from DG14, makes an ephemeral key pair on the
 * same domain parameters, derives KSenc/KSmac = KDF(Z, 1/2) from the shared secret Z (9303-11 §9.7.1) and
 * protects a first command under them with SSC 0 (§9.8). The chip gets the ephemeral public key by MSE:Set KAT
 * (3DES protocols) or MSE:Set AT + GENERAL AUTHENTICATE (AES protocols), which the app sends and can answer that command with a valid MAC only if it holds the DG14 private key.
 * The ephemeral private key never leaves the verifier: whoever holds it (and the public DG14) can compute Z
 * and forge the answer, so evidence with a terminal key chosen by the app proves nothing.
 */
import { createECDH, createHash } from 'node:crypto';
import { Icao9303Error } from '../errors.js';
import { parseDg14 } from '../lds/dg14.js';
import type { ChipAuthenticationPublicKeyInfo } from '../lds/securityInfos.js';
import { fromHex, toBuffer, toHex } from '../util/bytes.js';
import { deriveKey, type SmCipher } from '../sm/primitives.js';
import { SecureMessaging } from '../sm/secureMessaging.js';
import { bigFromBytes, dhDomain, dhEphemeralKeyPair, dhSharedSecret, encodeModP, modPow } from './dh.js';

/** SELECT EF.COM (FID 011E) without response data: every LDS1 chip answers it (9303-10 §4.6.1, 9303-11 §9.8). */
export const CHIP_AUTH_FIRST_COMMAND = new Uint8Array([0x00, 0xa4, 0x02, 0x0c, 0x02, 0x01, 0x1e]);

/**
 * What the terminal keeps between the challenge and the chip's answer: secret (seal it at rest), JSON-friendly
 * (hex strings). Bound to the DG14 bytes it was made for.
 */
export interface ChipAuthTerminalState {
  version: 1;
  keyAgreement: 'ECDH' | 'DH';
  cipher: SmCipher;
  keyId?: number;
  curve?: string;
  /** SHA-256 of the DG14 file the key was taken from */
  dg14Sha256: string;
  /** the ephemeral private key (EC scalar or DH exponent) */
  terminalPrivateKey: string;
  ksEnc: string;
  ksMac: string;
  /** SSC after the protected command; the chip's answer uses the next value (9303-11 §9.8.3) */
  ssc: string;
}

export interface ChipAuthChallenge {
  /** the ephemeral public key for the key agreement command: uncompressed EC point or DH value, p's length (9303-11 §6.2) */
  terminalPublicKey: Uint8Array;
  /** the first command under the new session keys, to relay to the chip as is */
  protectedCommand: Uint8Array;
  /** the key reference (DO84) when DG14 names key ids (9303-11 §9.2.6) */
  keyId?: number;
  secretState: ChipAuthTerminalState;
}

/** The chip's answer to a challenge made by startChipAuthentication. */
export interface ChipAuthEvidence {
  state: ChipAuthTerminalState;
  responseApdu: Uint8Array;
}

export interface ChipAuthCheck {
  ok: boolean;
  cipher?: SmCipher;
  curve?: string;
  keyId?: number;
  /** status word inside the protected answer (DO99), when its MAC verified */
  statusWord?: string;
  problems: string[];
}

export interface StartChipAuthOptions {
  /** cipher when DG14 has no ChipAuthenticationInfo; default 3DES (TR-03110 v1.11 CA without info) */
  cipher?: SmCipher;
}

export function startChipAuthentication(dg14: Uint8Array, keyId?: number, options: StartChipAuthOptions = {}): ChipAuthChallenge {
  return startChipAuthenticationWithKey(dg14, keyId, options);
}

/**
 * As startChipAuthentication; `ephemeralPrivateKey` only reproduces recorded sessions in tests (a terminal
 * key from anywhere but this process makes the proof worthless). Not exported from the package index.
 */
export function startChipAuthenticationWithKey(
  dg14Bytes: Uint8Array,
  keyId: number | undefined,
  options: StartChipAuthOptions,
  ephemeralPrivateKey?: Uint8Array,
): ChipAuthChallenge {
  const dg14 = parseDg14(dg14Bytes);
  const keys = dg14.chipAuthenticationPublicKeys.filter((k) => keyId === undefined || k.keyId === keyId);
  const field = 'DG14.chipAuthenticationPublicKey';
  if (keys.length === 0)
    throw new Icao9303Error(
      'KEY_UNSUPPORTED',
      field,
      `DG14 has no chip authentication public key${keyId === undefined ? '' : ` with keyId ${keyId}`} (9303-11 §9.2.6)`,
    );
  // Several keys and no keyId: the first is used, as a terminal without a preference would (9303-11 §9.2.5)
  const key = keys[0];
  const info = dg14.chipAuthenticationInfos.find((i) => i.keyId === key.keyId || (i.keyId === undefined && dg14.chipAuthenticationInfos.length === 1));
  const cipher: SmCipher = info && info.cipher !== 'unknown' ? info.cipher : (options.cipher ?? '3DES');
  const agreement = ephemeralAgreement(key, ephemeralPrivateKey);
  const ksEnc = deriveKey(agreement.z, 1, cipher);
  const ksMac = deriveKey(agreement.z, 2, cipher);
  // After CA the SSC restarts at zero under the new keys (9303-11 §6.2, TR-03110-1 §3.4)
  const sm = new SecureMessaging(cipher, ksEnc, ksMac, new Uint8Array(cipher === '3DES' ? 8 : 16));
  const protectedCommand = sm.protectCommand(CHIP_AUTH_FIRST_COMMAND);
  return {
    terminalPublicKey: agreement.publicKey,
    protectedCommand,
    keyId: key.keyId,
    secretState: {
      version: 1,
      keyAgreement: key.publicKey.kind === 'DH' ? 'DH' : 'ECDH',
      cipher,
      ...(key.keyId !== undefined ? { keyId: key.keyId } : {}),
      ...(key.publicKey.curve ? { curve: key.publicKey.curve } : {}),
      dg14Sha256: sha256Hex(dg14Bytes),
      terminalPrivateKey: toHex(agreement.privateKey),
      ksEnc: toHex(ksEnc),
      ksMac: toHex(ksMac),
      ssc: toHex(sm.ssc),
    },
  };
}

/** Checks the chip's protected answer to the challenge's command: its MAC under KSmac with the next SSC (9303-11 §9.8.5). */
export function verifyChipAuthenticationResponse(state: ChipAuthTerminalState, responseApdu: Uint8Array): ChipAuthCheck {
  const base = { cipher: state.cipher, curve: state.curve, keyId: state.keyId };
  try {
    const sm = new SecureMessaging(state.cipher, fromHex(state.ksEnc), fromHex(state.ksMac), fromHex(state.ssc));
    const r = sm.unprotectResponse(responseApdu);
    return { ok: true, ...base, statusWord: r.sw.toString(16).toUpperCase().padStart(4, '0'), problems: [] };
  } catch (e) {
    if (!(e instanceof Icao9303Error)) throw e;
    return { ok: false, ...base, problems: [`the chip's answer under the Chip Authentication session keys does not verify: ${e.message} (9303-11 §6.2)`] };
  }
}

/** True when `dg14` is the file the challenge was made for (the key the chip proved is the one the SOD signs). */
export function isChallengeDg14(state: ChipAuthTerminalState, dg14: Uint8Array): boolean {
  return sha256Hex(dg14) === state.dg14Sha256;
}

/**
 * ECDH: Z is the x-coordinate of the shared point (TR-03111 §4.3.1 "ECKA", ICAO 9303-11 §9.7.1) and the
 * public key an uncompressed point; DH: Z = y^x mod p and the public key g^x mod p, both p's length.
 */
function ephemeralAgreement(key: ChipAuthenticationPublicKeyInfo, fixedPrivate?: Uint8Array): { privateKey: Uint8Array; publicKey: Uint8Array; z: Uint8Array } {
  const pk = key.publicKey;
  if (pk.kind === 'DH') {
    const domain = dhDomain(pk.spki);
    const pair = fixedPrivate
      ? { privateKey: fixedPrivate, publicKey: encodeModP(modPow(domain.g, bigFromBytes(fixedPrivate), domain.p), domain.p) }
      : dhEphemeralKeyPair(domain);
    return { ...pair, z: dhSharedSecret(pk.spki, pair.privateKey) };
  }
  if (pk.kind !== 'EC' || !pk.curve) throw new Icao9303Error('KEY_UNSUPPORTED', 'DG14.chipAuthenticationPublicKey', 'EC key on a curve OpenSSL does not know');
  const ecdh = createECDH(pk.curve);
  if (fixedPrivate) ecdh.setPrivateKey(toBuffer(fixedPrivate));
  else ecdh.generateKeys();
  try {
    const z = new Uint8Array(ecdh.computeSecret(toBuffer(pk.publicKeyBytes)));
    return { privateKey: new Uint8Array(ecdh.getPrivateKey()), publicKey: new Uint8Array(ecdh.getPublicKey(null, 'uncompressed')), z };
  } catch (e) {
    throw new Icao9303Error('KEY_UNSUPPORTED', 'DG14.chipAuthenticationPublicKey', `key agreement failed: ${(e as Error).message}`, { cause: e });
  }
}

const sha256Hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
