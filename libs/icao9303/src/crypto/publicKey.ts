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
import { OID } from '../asn1/oids.js';
import { DerReader, TAG, type DerNode } from '../asn1/derReader.js';

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
  return plainSpki(input, field) ?? normalizedSpki(input, field);
}

/**
 * A certificate's key: OpenSSL already decoded it with the certificate (X509Certificate.publicKey), and a
 * second import of the same SPKI costs as much as the certificate decode itself (~0.3 ms, OpenSSL 3 decoders).
 */
export function publicKeyFromCertificate(spki: Uint8Array, decoded: () => KeyObject, field: string): PublicKeyInfo {
  return plainSpki(spki, field, decoded) ?? normalizedSpki(spki, field);
}

/**
 * Plain X.509 RSA and EC keys (all CSCA/DS keys): read the SPKI in one pass and import it as received; the
 * schema decode below is only needed to rewrite chip authentication keys. undefined: take the general path.
 */
function plainSpki(spki: Uint8Array, field: string, decoded?: () => KeyObject): PublicKeyInfo | undefined {
  let oid: string, params: DerNode | undefined, publicKeyBytes: Uint8Array;
  try {
    const r = new DerReader('KEY_UNSUPPORTED', field);
    const top = r.children(r.one(spki, 'SubjectPublicKeyInfo', TAG.SEQUENCE), 'SubjectPublicKeyInfo');
    const alg = r.children(r.expect(top[0], TAG.SEQUENCE, 'algorithm'), 'algorithm');
    if (top.length !== 2 || alg.length > 2) return undefined;
    oid = r.oid(alg[0], 'algorithm');
    params = alg[1];
    publicKeyBytes = r.bits(top[1], 'subjectPublicKey').slice();
  } catch (e) {
    if (e instanceof Icao9303Error) return undefined;
    throw e;
  }
  const rsa = oid === OID.rsaEncryption || oid === OID.rsassaPss;
  const ec = oid === OID.ecPublicKey && (params?.tag === TAG.OID || params?.tag === TAG.SEQUENCE);
  if (!rsa && !ec) return undefined;
  let key: KeyObject | undefined;
  try {
    key = decoded?.();
  } catch {
    key = undefined; // not importable through the certificate: the plain import below reports why
  }
  return describeKey(key ?? importSpki(spki, oid, field), { publicKeyBytes, spki, algorithmOid: oid, explicit: params?.tag === TAG.SEQUENCE }, field);
}

function normalizedSpki(input: Uint8Array, field: string): PublicKeyInfo {
  let spki = input;
  const original = decode(spki, SubjectPublicKeyInfo, 'KEY_UNSUPPORTED', field);
  const parsed = normalizeChipAuthenticationKey(original, field);
  if (parsed !== original) spki = encode(parsed);
  const oid = parsed.algorithm.algorithm;
  const publicKeyBytes = new Uint8Array(parsed.subjectPublicKey);
  if (oid === OID.dhPublicNumber) return { kind: 'DH', publicKeyBytes, spki, algorithmOid: oid };
  const params = parsed.algorithm.parameters;
  // An OBJECT IDENTIFIER (tag 06) names the curve; a SEQUENCE (tag 30) is explicit ECParameters (RFC 3279 §2.3.5)
  const explicit = !!params && new Uint8Array(params)[0] === 0x30;
  return describeKey(importSpki(spki, oid, field), { publicKeyBytes, spki, algorithmOid: oid, explicit }, field);
}

function importSpki(spki: Uint8Array, oid: string, field: string): KeyObject {
  try {
    return createPublicKey({ key: toBuffer(spki), format: 'der', type: 'spki' });
  } catch (e) {
    throw new Icao9303Error('KEY_UNSUPPORTED', field, `cannot import public key (${oid}): ${(e as Error).message}`, { cause: e });
  }
}

function describeKey(
  key: KeyObject,
  k: { publicKeyBytes: Uint8Array; spki: Uint8Array; algorithmOid: string; explicit: boolean },
  field: string,
): PublicKeyInfo {
  const { publicKeyBytes, spki, algorithmOid } = k;
  if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') {
    return { kind: 'RSA', key, bits: key.asymmetricKeyDetails?.modulusLength, publicKeyBytes, spki, algorithmOid };
  }
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return {
      kind: 'EC',
      key,
      curve,
      explicitParameters: k.explicit,
      bits: publicKeyBytes.length > 1 ? ((publicKeyBytes.length - 1) / 2) * 8 : undefined,
      publicKeyBytes,
      spki,
      algorithmOid,
    };
  }
  throw new Icao9303Error('KEY_UNSUPPORTED', field, `unsupported key type ${key.asymmetricKeyType}`);
}

/** Standardized domain parameter IDs (ICAO 9303-11 §9.5.1 Table 6 / BSI TR-03110-3 Table 4) → curve OIDs. */
const STANDARDIZED_CURVES: Record<number, string> = {
  8: '1.2.840.10045.3.1.1',
  9: '1.3.36.3.3.2.8.1.1.3',
  10: '1.3.132.0.33',
  11: '1.3.36.3.3.2.8.1.1.5',
  12: '1.2.840.10045.3.1.7',
  13: '1.3.36.3.3.2.8.1.1.7',
  14: '1.3.36.3.3.2.8.1.1.9',
  15: '1.3.132.0.34',
  16: '1.3.36.3.3.2.8.1.1.11',
  17: '1.3.36.3.3.2.8.1.1.13',
  18: '1.3.132.0.35',
};

/**
 * Chip authentication keys may be labelled id-PK-ECDH instead of id-ecPublicKey and may name their curve by a
 * standardized domain parameter ID under id-PK-ECDH or standardizedDomainParameters (TR-03110-3 A.1.1, A.2.1.1). Rewrites them as a plain X.509 EC key.
 */
function normalizeChipAuthenticationKey(spki: SubjectPublicKeyInfo, field: string): SubjectPublicKeyInfo {
  const alg = spki.algorithm.algorithm;
  if (alg !== OID.pkEcdh && alg !== OID.standardizedDomainParameters && alg !== OID.ecPublicKey) return spki;
  let parameters = spki.algorithm.parameters;
  // A standardized domain parameter ID is an INTEGER where the curve's OID or parameters would be.
  const reader = new DerReader('KEY_UNSUPPORTED', field);
  const id =
    parameters && new Uint8Array(parameters)[0] === TAG.INTEGER
      ? reader.smallInt(reader.one(new Uint8Array(parameters), 'parameters'), 'parameters')
      : undefined;
  if (id !== undefined) {
    const curve = STANDARDIZED_CURVES[id];
    if (!curve) throw new Icao9303Error('KEY_UNSUPPORTED', field, `standardized domain parameters ${id} are not an elliptic curve`);
    parameters = encode(new ECParameters({ namedCurve: curve })).buffer as ArrayBuffer;
  } else if (alg === OID.ecPublicKey) {
    return spki;
  }
  return new SubjectPublicKeyInfo({ algorithm: new AlgorithmIdentifier({ algorithm: OID.ecPublicKey, parameters }), subjectPublicKey: spki.subjectPublicKey });
}
