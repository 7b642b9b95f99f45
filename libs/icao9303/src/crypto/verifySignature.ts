/**
 * Signature verification by algorithm identifier: RSA PKCS#1 v1.5 (RFC 8017 §8.2, including the bare
 * rsaEncryption OID with the digest from the SignerInfo, as found in real SODs), RSASSA-PSS (RFC 8017 §8.1,
 * params per RFC 4055 §3.1) and ECDSA (X9.62 DER, or plain r||s per BSI TR-03111 §5.2.1) on any curve
 * OpenSSL knows, including brainpool.
 */
import { constants, verify, type KeyObject } from 'node:crypto';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { Icao9303Error } from '../errors.js';
import { toBuffer } from '../util/bytes.js';
import { DerReader, TAG } from '../asn1/derReader.js';
import { algorithm } from '../sod/signedData.js';
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
    const params = pssParams(alg.parameters, field);
    return { scheme: 'rsa-pss', hash: params.hash, saltLength: params.saltLength };
  }
  return { scheme: entry.scheme, hash: entry.hash!, dsaEncoding: alg.algorithm.startsWith('0.4.0.127.0.7.1.1.4.1.') ? 'ieee-p1363' : 'der' };
}

/**
 * RSASSA-PSS-params ::= SEQUENCE { hashAlgorithm [0] DEFAULT sha1, maskGenAlgorithm [1] DEFAULT mgf1SHA1,
 * saltLength [2] DEFAULT 20, trailerField [3] DEFAULT 1 } (RFC 4055 §3.1), read in one pass; absent or NULL
 * parameters mean all defaults.
 */
function pssParams(parameters: ArrayBuffer | null | undefined, field: string): { hash: string; saltLength: number } {
  let hashOid = SHA1;
  let mgfHashOid: string | undefined = SHA1;
  let saltLength = 20;
  if (parameters && parameters.byteLength > 2) {
    const where = `${field}.RSASSA-PSS-params`;
    const r = new DerReader('ALGORITHM_UNSUPPORTED', where);
    const fields = r.children(r.one(new Uint8Array(parameters), 'params', TAG.SEQUENCE), 'params');
    let last = -1;
    for (const f of fields) {
      const n = f.tag - 0xa0;
      if (n < 0 || n > 3 || n <= last) r.fail('params', `unexpected element ${f.tag.toString(16)}`);
      last = n;
      const [inner, ...rest] = r.children(f, 'params');
      if (!inner || rest.length) r.fail('params', 'explicit tag must hold one value');
      if (n === 0) hashOid = algorithm(inner, r, 'hashAlgorithm').algorithm;
      if (n === 1) {
        const mgf = algorithm(inner, r, 'maskGenAlgorithm');
        mgfHashOid = mgf.parameters ? algorithm(r.one(new Uint8Array(mgf.parameters), 'mgf'), r, 'mgf').algorithm : undefined;
      }
      if (n === 2) saltLength = r.smallInt(inner, 'saltLength');
    }
  }
  const hash = HASH_BY_OID[hashOid];
  if (!hash) throw new Icao9303Error('ALGORITHM_UNSUPPORTED', field, `PSS hash ${hashOid}`);
  if (mgfHashOid && HASH_BY_OID[mgfHashOid] !== hash) {
    // Node's PSS verification uses the same hash for MGF1; other combinations are not supported.
    throw new Icao9303Error('ALGORITHM_UNSUPPORTED', field, 'PSS with MGF1 hash different from message hash');
  }
  return { hash, saltLength };
}

const SHA1 = '1.3.14.3.2.26';

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
