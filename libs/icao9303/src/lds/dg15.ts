/** DG15 Active Authentication public key (ICAO 9303-10 §4.7.15, 9303-11 §6.1): tag 6F wrapping a SubjectPublicKeyInfo. */
import { Icao9303Error, guard } from '../errors.js';
import { expectTlv } from '../util/tlv.js';
import { publicKeyFromSpki, type PublicKeyInfo } from '../crypto/publicKey.js';

export interface Dg15 {
  publicKey: PublicKeyInfo;
}

export function parseDg15(bytes: Uint8Array): Dg15 {
  return guard('LDS_MALFORMED', 'DG15', () => {
    const outer = expectTlv(bytes, 0x6f, 'DG15');
    const publicKey = publicKeyFromSpki(outer.value, 'DG15.SubjectPublicKeyInfo');
    // 9303-11 §6.1: AA keys are RSA or ECDSA; DH keys make no sense here.
    if (publicKey.kind === 'DH') throw new Icao9303Error('KEY_UNSUPPORTED', 'DG15', 'DH key is not an Active Authentication key');
    return { publicKey };
  });
}
