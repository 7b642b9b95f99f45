/**
 * SubjectPublicKeyInfo → Node KeyObject. EC keys with explicit domain parameters (common in eMRTD PKI,
 * BSI TR-03111 §4.1.1) are matched to the built-in named curve by OpenSSL itself when decoding: it compares
 * the full parameter set (p, a, b, G, n, h), so `namedCurve` is only set on an exact match.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import { Icao9303Error } from '../errors.js';
import { toBuffer } from '../util/bytes.js';
import { decode } from '../asn1/der.js';
import { OID } from '../asn1/oids.js';

export interface PublicKeyInfo {
  kind: 'RSA' | 'EC' | 'DH';
  /** absent for DH (Node cannot import X9.42 DH keys; handled by the CA module) */
  key?: KeyObject;
  /** EC: OpenSSL curve name (named or matched from explicit parameters) */
  curve?: string;
  explicitParameters?: boolean;
  /** RSA modulus bits or EC field bits */
  bits?: number;
  /** EC uncompressed point / DH public value / RSA key, exactly as in the BIT STRING */
  publicKeyBytes: Uint8Array;
  spki: Uint8Array;
  algorithmOid: string;
}

export function publicKeyFromSpki(spki: Uint8Array, field = 'SubjectPublicKeyInfo'): PublicKeyInfo {
  const parsed = decode(spki, SubjectPublicKeyInfo, 'KEY_UNSUPPORTED', field);
  const oid = parsed.algorithm.algorithm;
  const publicKeyBytes = new Uint8Array(parsed.subjectPublicKey);
  if (oid === OID.dhPublicNumber) return { kind: 'DH', publicKeyBytes, spki, algorithmOid: oid };
  let key: KeyObject;
  try {
    key = createPublicKey({ key: toBuffer(spki), format: 'der', type: 'spki' });
  } catch (e) {
    throw new Icao9303Error('KEY_UNSUPPORTED', field, `cannot import public key (${oid}): ${(e as Error).message}`, { cause: e });
  }
  if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') {
    return { kind: 'RSA', key, bits: key.asymmetricKeyDetails?.modulusLength, publicKeyBytes, spki, algorithmOid: oid };
  }
  if (key.asymmetricKeyType === 'ec') {
    const params = parsed.algorithm.parameters;
    // An OBJECT IDENTIFIER (tag 06) names the curve; a SEQUENCE (tag 30) is explicit ECParameters (RFC 3279 §2.3.5)
    const explicit = !!params && new Uint8Array(params)[0] === 0x30;
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return { kind: 'EC', key, curve, explicitParameters: explicit, bits: publicKeyBytes.length > 1 ? ((publicKeyBytes.length - 1) / 2) * 8 : undefined, publicKeyBytes, spki, algorithmOid: oid };
  }
  throw new Icao9303Error('KEY_UNSUPPORTED', field, `unsupported key type ${key.asymmetricKeyType}`);
}
