/**
 * The chip's side of Chip Authentication v1 (ICAO 9303-11 §6.2, BSI TR-03110-1 §3.4) for specimen chips:
 * given the terminal's ephemeral public key (MSE:Set KAT or GENERAL AUTHENTICATE) it computes Z with its DG14 private key, switches
 * to KSenc/KSmac = KDF(Z, 1/2) (§9.7.1) with SSC 0, and answers the next protected command under them.
 * Test and customer-test use only.
 */
import { createECDH, type KeyObject } from 'node:crypto';
import { Icao9303Error } from '../errors.js';
import { bigFromBytes, encodeModP, modPow } from '../ca/dh.js';
import { encodeResponse } from '../sm/apdu.js';
import { deriveKey, type SmCipher } from '../sm/primitives.js';
import { SecureMessaging } from '../sm/secureMessaging.js';
import { toBuffer } from '../util/bytes.js';

export type ChipAuthChipKey =
  { keyAgreement: 'ECDH'; privateKey: KeyObject; cipher: SmCipher } | { keyAgreement: 'DH'; privateKey: Uint8Array; prime: bigint; cipher: SmCipher };

/** Z from the chip's static private key and the terminal's ephemeral public key. */
function chipSharedSecret(key: ChipAuthChipKey, terminalPublicKey: Uint8Array): Uint8Array {
  if (key.keyAgreement === 'DH') return encodeModP(modPow(bigFromBytes(terminalPublicKey), bigFromBytes(key.privateKey), key.prime), key.prime);
  const curve = key.privateKey.asymmetricKeyDetails?.namedCurve;
  const d = key.privateKey.export({ format: 'jwk' }).d;
  if (!curve || !d) throw new Icao9303Error('KEY_UNSUPPORTED', 'chipAuthKey', 'not an EC private key on a named curve');
  const ecdh = createECDH(curve);
  ecdh.setPrivateKey(Buffer.from(d, 'base64url'));
  try {
    return new Uint8Array(ecdh.computeSecret(toBuffer(terminalPublicKey)));
  } catch (e) {
    // a real chip refuses the key agreement command here (9303-11 §6.2)
    throw new Icao9303Error('CHIP_ERROR', 'terminalPublicKey', `not a point on the chip's curve: ${(e as Error).message}`, { cause: e });
  }
}

/**
 * Key agreement with `terminalPublicKey`, then `protectedCommand`: returns the chip's protected response APDU.
 * SELECT answers 9000, anything else 6D00; a command whose MAC fails ends SM with a plain 6988 (§9.8.4).
 */
export function answerChipAuthentication(key: ChipAuthChipKey, terminalPublicKey: Uint8Array, protectedCommand: Uint8Array): Uint8Array {
  const z = chipSharedSecret(key, terminalPublicKey);
  const sm = new SecureMessaging(key.cipher, deriveKey(z, 1, key.cipher), deriveKey(z, 2, key.cipher), new Uint8Array(key.cipher === '3DES' ? 8 : 16));
  let command;
  try {
    command = sm.unprotectCommand(protectedCommand);
  } catch {
    return encodeResponse(new Uint8Array(0), 0x6988);
  }
  return sm.protectResponse(new Uint8Array(0), command.ins === 0xa4 ? 0x9000 : 0x6d00);
}
