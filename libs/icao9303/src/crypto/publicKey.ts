/**
 * SubjectPublicKeyInfo → Node KeyObject. EC keys with explicit domain parameters (common in eMRTD PKI,
 * BSI TR-03111 §4.1.1) are matched to the built-in named curve by OpenSSL itself when decoding: it compares
 * the full parameter set (p, a, b, G, n, h), so `namedCurve` is only set on an exact match.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import { Icao9303Error } from '../errors.js';
import { toBuffer } from '../util/bytes.js';
import { decode, encode } from '../asn1/der.js';
import { ECParameters } from '@peculiar/asn1-ecc';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import * as asn1js from 'asn1js';
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

export function publicKeyFromSpki(input: Uint8Array, field = 'SubjectPublicKeyInfo'): PublicKeyInfo {
  let spki = input;
  const original = decode(spki, SubjectPublicKeyInfo, 'KEY_UNSUPPORTED', field);
  const parsed = normalizeChipAuthenticationKey(original, field);
  if (parsed !== original) spki = encode(parsed);
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

/** Standardized domain parameter IDs (ICAO 9303-11 §9.5.1 Table 6 / BSI TR-03110-3 Table 4) → curve OIDs. */
const STANDARDIZED_CURVES: Record<number, string> = {
  8: '1.2.840.10045.3.1.1', 9: '1.3.36.3.3.2.8.1.1.3', 10: '1.3.132.0.33', 11: '1.3.36.3.3.2.8.1.1.5',
  12: '1.2.840.10045.3.1.7', 13: '1.3.36.3.3.2.8.1.1.7', 14: '1.3.36.3.3.2.8.1.1.9', 15: '1.3.132.0.34',
  16: '1.3.36.3.3.2.8.1.1.11', 17: '1.3.36.3.3.2.8.1.1.13', 18: '1.3.132.0.35',
};

/**
 * Chip authentication keys may be labelled id-PK-ECDH instead of id-ecPublicKey and may name their curve by a
 * standardized domain parameter ID under id-PK-ECDH or standardizedDomainParameters (TR-03110-3 A.1.1, A.2.1.1). Rewrites them as a plain X.509 EC key.
 */
function normalizeChipAuthenticationKey(spki: SubjectPublicKeyInfo, field: string): SubjectPublicKeyInfo {
  const alg = spki.algorithm.algorithm;
  if (alg !== OID.pkEcdh && alg !== OID.standardizedDomainParameters && alg !== OID.ecPublicKey) return spki;
  let parameters = spki.algorithm.parameters;
  const p = parameters ? asn1js.fromBER(parameters).result : undefined;
  if (p instanceof asn1js.Integer) {
    const curve = STANDARDIZED_CURVES[p.valueBlock.valueDec];
    if (!curve) throw new Icao9303Error('KEY_UNSUPPORTED', field, `standardized domain parameters ${p.valueBlock.valueDec} are not an elliptic curve`);
    parameters = encode(new ECParameters({ namedCurve: curve })).buffer as ArrayBuffer;
  } else if (alg === OID.ecPublicKey) {
    return spki;
  }
  return new SubjectPublicKeyInfo({ algorithm: new AlgorithmIdentifier({ algorithm: OID.ecPublicKey, parameters }), subjectPublicKey: spki.subjectPublicKey });
}
