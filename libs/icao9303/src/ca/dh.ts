/**
 * Finite-field Diffie-Hellman for DH-based Chip Authentication keys (9303-11 §9.7.1; X9.42 domain
 * parameters in the SubjectPublicKeyInfo, RFC 3279 §2.3.3). Node cannot import X9.42 keys, so the
 * modular exponentiation is done with BigInt.
 */
import { randomBytes } from 'node:crypto';
import { SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import { Icao9303Error } from '../errors.js';
import { decode } from '../asn1/der.js';
import { DerReader, TAG } from '../asn1/derReader.js';

export const bigFromBytes = (b: Uint8Array) => (b.length ? BigInt(`0x${Buffer.from(b).toString('hex')}`) : 0n);

export function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
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

const MIN_DH_BITS = 1024;
const MAX_DH_BITS = 4096;

export interface DhDomain {
  p: bigint;
  g: bigint;
  /** subgroup order when the parameters carry it (X9.42 DomainParameters q) */
  q?: bigint;
  /** the chip's public value y */
  y: bigint;
}

/** The domain parameters and public value of an X9.42 DH key (RFC 3279 §2.3.3). */
export function dhDomain(spki: Uint8Array): DhDomain {
  const field = 'DG14.chipAuthenticationPublicKey(DH)';
  const info = decode(spki, SubjectPublicKeyInfo, 'KEY_UNSUPPORTED', field);
  const reader = new DerReader('KEY_UNSUPPORTED', field);
  const parameters = new Uint8Array(info.algorithm.parameters ?? new ArrayBuffer(0));
  const ints =
    parameters[0] === TAG.SEQUENCE
      ? reader.children(reader.one(parameters, 'DomainParameters'), 'DomainParameters').filter((node) => node.tag === TAG.INTEGER)
      : [];
  if (ints.length < 2) throw new Icao9303Error('KEY_UNSUPPORTED', field, 'DomainParameters p, g missing (RFC 3279 §2.3.3)');
  const [p, g, q] = ints.map((node) => bigFromBytes(node.value));
  const publicValue = new Uint8Array(info.subjectPublicKey);
  if (publicValue[0] !== TAG.INTEGER) throw new Icao9303Error('KEY_UNSUPPORTED', field, 'public value is not an INTEGER');
  const domain = { p, g, q, y: bigFromBytes(reader.one(publicValue, 'subjectPublicKey').value) };
  // DG14 reaches the verifier before passive authentication: a huge p would make every modPow a CPU sink,
  // and g or y of 0, 1 or p-1 would make Z guessable. TR-03110-3 A.2.1.1 groups are 1024 and 2048 bits.
  const bits = p.toString(2).length;
  if (bits < MIN_DH_BITS || bits > MAX_DH_BITS)
    throw new Icao9303Error('KEY_UNSUPPORTED', field, `p has ${bits} bits; ${MIN_DH_BITS}-${MAX_DH_BITS} are accepted`);
  for (const [name, v] of [
    ['g', domain.g],
    ['y', domain.y],
  ] as const) {
    if (v <= 1n || v >= p - 1n) throw new Icao9303Error('KEY_UNSUPPORTED', field, `${name} is not in [2, p-2] (NIST SP 800-56A Rev. 3 §5.6.2.3.1)`);
  }
  if (q !== undefined && (q <= 1n || q >= p)) throw new Icao9303Error('KEY_UNSUPPORTED', field, 'q is not in [2, p-1]');
  return domain;
}

/** A value mod p encoded with the length of p (TR-03111 §3.1.3 / 9303-11 §9.7.1). */
export function encodeModP(value: bigint, p: bigint): Uint8Array {
  const len = Math.ceil(p.toString(16).length / 2);
  return new Uint8Array(Buffer.from(value.toString(16).padStart(len * 2, '0'), 'hex'));
}

/** Z = y^x mod p. */
export function dhSharedSecret(spki: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const { p, y } = dhDomain(spki);
  return encodeModP(modPow(y, bigFromBytes(privateKey), p), p);
}

/** An ephemeral key pair on the chip's domain parameters: x in [1, q-1] (or [1, p-2]), public g^x mod p. */
export function dhEphemeralKeyPair(domain: DhDomain): { privateKey: Uint8Array; publicKey: Uint8Array } {
  const order = domain.q && domain.q > 1n ? domain.q : domain.p - 1n;
  // 64 extra random bits make the reduction's bias negligible
  const bytes = Math.ceil(order.toString(16).length / 2) + 8;
  const x = (bigFromBytes(new Uint8Array(randomBytes(bytes))) % (order - 1n)) + 1n;
  return { privateKey: encodeModP(x, domain.p), publicKey: encodeModP(modPow(domain.g, x, domain.p), domain.p) };
}
