/**
 * Active Authentication (ICAO 9303-11 §6.1): the chip signs the terminal's challenge with the private key
 * whose public key is in DG15. RSA uses ISO/IEC 9796-2 scheme 1; ECDSA returns a plain r||s signature
 * (BSI TR-03111 §5.2.1) whose hash is named in DG14 ActiveAuthenticationInfo.
 */
import { verify } from 'node:crypto';
import { HASH_BY_OID, SIGNATURE_BY_OID } from '../asn1/oids.js';
import type { Dg15 } from '../lds/dg15.js';
import type { Dg14 } from '../lds/dg14.js';
import { toBuffer, toHex } from '../util/bytes.js';
import { verifyIso9796Scheme1 } from './iso9796.js';
import { Icao9303Error } from '../errors.js';

export interface ActiveAuthCheck {
  ok: boolean;
  algorithm: 'RSA-ISO9796-2' | 'ECDSA';
  hash?: string;
  /** hex of the recovered M1 (RSA) */
  recoveredM1?: string;
  problems: string[];
}

export interface ActiveAuthOptions {
  /** hash for ECDSA or for the implicit RSA trailer; default: from DG14 ActiveAuthenticationInfo, else tried in order SHA-1..SHA-512 */
  hash?: string;
  dg14?: Dg14;
}

const ALL_HASHES = ['sha1', 'sha224', 'sha256', 'sha384', 'sha512'];

export function verifyActiveAuthentication(dg15: Dg15, challenge: Uint8Array, signature: Uint8Array, options: ActiveAuthOptions = {}): ActiveAuthCheck {
  if (challenge.length !== 8)
    throw new Icao9303Error('INVALID_ARGUMENT', 'activeAuth.challenge', `RND.IFD must be 8 bytes (9303-11 §6.1.2), got ${challenge.length}`);
  const key = dg15.publicKey.key!;
  const fromDg14 = aaHashFromDg14(options.dg14);
  if (dg15.publicKey.kind === 'RSA') {
    const r = verifyIso9796Scheme1(key, signature, challenge, options.hash ?? fromDg14 ?? 'sha1');
    return {
      ok: r.ok,
      algorithm: 'RSA-ISO9796-2',
      hash: r.hash,
      recoveredM1: r.recovered ? toHex(r.recovered) : undefined,
      problems: r.ok ? [] : [r.problem ?? 'invalid'],
    };
  }
  const hashes = options.hash ? [options.hash] : fromDg14 ? [fromDg14] : ALL_HASHES;
  const encoding = signature[0] === 0x30 && signature.length !== ((dg15.publicKey.bits ?? 0) / 8) * 2 ? 'der' : 'ieee-p1363';
  for (const hash of hashes) {
    try {
      if (verify(hash, toBuffer(challenge), { key, dsaEncoding: encoding }, toBuffer(signature))) return { ok: true, algorithm: 'ECDSA', hash, problems: [] };
    } catch {
      // malformed signature: treated as not verifying
    }
  }
  return { ok: false, algorithm: 'ECDSA', problems: [`ECDSA signature does not verify with ${hashes.join('/')} (9303-11 §6.1.2, TR-03111 §5.2.1)`] };
}

/** 9303-11 §6.1: ActiveAuthenticationInfo.signatureAlgorithm, e.g. ecdsa-plain-SHA256. */
function aaHashFromDg14(dg14?: Dg14): string | undefined {
  const info = dg14?.securityInfos.find((s) => s.type === 'ActiveAuthenticationInfo');
  const oid = info && 'signatureAlgorithm' in info ? info.signatureAlgorithm : undefined;
  return oid ? (SIGNATURE_BY_OID[oid]?.hash ?? HASH_BY_OID[oid]) : undefined;
}
