/**
 * Finite-field Diffie-Hellman for DH-based Chip Authentication keys (9303-11 §9.7.1; X9.42 domain
 * parameters in the SubjectPublicKeyInfo, RFC 3279 §2.3.3). Node cannot import X9.42 keys, so the
 * modular exponentiation is done with BigInt.
 */
import { SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import * as asn1js from 'asn1js';
import { Icao9303Error } from '../errors.js';
import { decode } from '../asn1/der.js';

const big = (b: Uint8Array) => (b.length ? BigInt(`0x${Buffer.from(b).toString('hex')}`) : 0n);

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  let b = base % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return result;
}

export function dhSharedSecret(spki: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const field = 'DG14.chipAuthenticationPublicKey(DH)';
  const info = decode(spki, SubjectPublicKeyInfo, 'KEY_UNSUPPORTED', field);
  const params = asn1js.fromBER(info.algorithm.parameters ?? new ArrayBuffer(0)).result as asn1js.Sequence;
  const ints = (params.valueBlock?.value ?? []).filter((v): v is asn1js.Integer => v instanceof asn1js.Integer);
  if (ints.length < 2) throw new Icao9303Error('KEY_UNSUPPORTED', field, 'DomainParameters p, g missing (RFC 3279 §2.3.3)');
  const p = big(new Uint8Array(ints[0].valueBlock.valueHexView));
  const y = asn1js.fromBER(info.subjectPublicKey).result;
  if (!(y instanceof asn1js.Integer)) throw new Icao9303Error('KEY_UNSUPPORTED', field, 'public value is not an INTEGER');
  const z = modPow(big(new Uint8Array(y.valueBlock.valueHexView)), big(privateKey), p);
  // Z is encoded with the length of p (TR-03111 §3.1.3 / 9303-11 §9.7.1)
  const len = Math.ceil(p.toString(16).length / 2);
  return new Uint8Array(Buffer.from(z.toString(16).padStart(len * 2, '0'), 'hex'));
}

