/**
 * Signature verification by algorithm identifier: RSA PKCS#1 v1.5 (RFC 8017 §8.2, including the bare
 * rsaEncryption OID with the digest from the SignerInfo, as found in real SODs), RSASSA-PSS (RFC 8017 §8.1,
 * params per RFC 4055 §3.1) and ECDSA (X9.62 DER, or plain r||s per BSI TR-03111 §5.2.1) on any curve
 * OpenSSL knows, including brainpool.
 */
import { constants, verify, type KeyObject } from 'node:crypto';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { RsaSaPssParams } from '@peculiar/asn1-rsa';
import { Icao9303Error } from '../errors.js';
import { toBuffer } from '../util/bytes.js';
import { decode } from '../asn1/der.js';
import { HASH_BY_OID, SIGNATURE_BY_OID } from '../asn1/oids.js';

export interface SignatureAlgorithm {
  scheme: 'rsa-pkcs1' | 'rsa-pss' | 'ecdsa';
  hash: string;
  saltLength?: number;
  /** 'der' for X9.62 Ecdsa-Sig-Value, 'ieee-p1363' for plain r||s */
  dsaEncoding?: 'der' | 'ieee-p1363';
}

/** Resolves the algorithm; `digestOid` supplies the hash for a bare rsaEncryption OID (SignerInfo.digestAlgorithm). */
export function resolveSignatureAlgorithm(alg: AlgorithmIdentifier, digestOid?: string, field = 'signatureAlgorithm'): SignatureAlgorithm {
  const entry = SIGNATURE_BY_OID[alg.algorithm];
  if (!entry) throw new Icao9303Error('ALGORITHM_UNSUPPORTED', field, `unsupported signature algorithm ${alg.algorithm}`);
  if (entry.scheme === 'rsa-bare') {
    const hash = digestOid ? HASH_BY_OID[digestOid] : undefined;
    if (!hash) throw new Icao9303Error('ALGORITHM_UNSUPPORTED', field, `rsaEncryption without a known digest algorithm (${digestOid})`);
    return { scheme: 'rsa-pkcs1', hash };
  }
  if (entry.scheme === 'rsa-pss') {
    // RFC 4055 §3.1: absent params mean SHA-1, MGF1-SHA-1, salt 20
    const params = alg.parameters && alg.parameters.byteLength > 2 ? decode(alg.parameters, RsaSaPssParams, 'ALGORITHM_UNSUPPORTED', `${field}.RSASSA-PSS-params`) : new RsaSaPssParams();
    const hash = HASH_BY_OID[params.hashAlgorithm.algorithm];
    if (!hash) throw new Icao9303Error('ALGORITHM_UNSUPPORTED', field, `PSS hash ${params.hashAlgorithm.algorithm}`);
    const mgfParams = params.maskGenAlgorithm.parameters ? decode(params.maskGenAlgorithm.parameters, AlgorithmIdentifier, 'ALGORITHM_UNSUPPORTED', `${field}.mgf`) : undefined;
    if (mgfParams && HASH_BY_OID[mgfParams.algorithm] !== hash) {
      // Node's PSS verification uses the same hash for MGF1; other combinations are not supported.
      throw new Icao9303Error('ALGORITHM_UNSUPPORTED', field, 'PSS with MGF1 hash different from message hash');
    }
    return { scheme: 'rsa-pss', hash, saltLength: params.saltLength };
  }
  return { scheme: entry.scheme, hash: entry.hash!, dsaEncoding: alg.algorithm.startsWith('0.4.0.127.0.7.1.1.4.1.') ? 'ieee-p1363' : 'der' };
}

/** Returns true/false for a well-formed verification; never throws for a merely invalid signature. */
export function verifyWith(alg: SignatureAlgorithm, key: KeyObject, data: Uint8Array, signature: Uint8Array): boolean {
  try {
    if (alg.scheme === 'rsa-pss') {
      return verify(alg.hash, toBuffer(data), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: alg.saltLength }, toBuffer(signature));
    }
    if (alg.scheme === 'ecdsa') return verify(alg.hash, toBuffer(data), { key, dsaEncoding: alg.dsaEncoding ?? 'der' }, toBuffer(signature));
    return verify(alg.hash, toBuffer(data), { key, padding: constants.RSA_PKCS1_PADDING }, toBuffer(signature));
  } catch {
    // OpenSSL rejects malformed signatures (wrong length, bad DER) with an exception: that is a failed verification.
    return false;
  }
}
