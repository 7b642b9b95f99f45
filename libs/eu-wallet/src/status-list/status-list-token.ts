import { inflateSync } from 'node:zlib';
import { StatusList, type BitsPerStatus } from '@sd-jwt/jwt-status-list';
import { WalletCheckError } from '../errors.js';
import { allowedAlg, base64UrlBytes, isObject, numericDate, parseCompactJws, verifyEcdsa, x5cChain } from '../jose/compact-jws.js';
import { verifyCertificateChain, type VerifiedChain } from '../trust/certificate-chain.js';

/** A Status List Token that passed every check, its list decoded, and how long it may be used. */
export interface VerifiedStatusList {
  list: StatusList;
  /** Its signer's verified chain (for the issuer rule and revocation) and its `iss`, if any. */
  chain: VerifiedChain;
  iss?: unknown;
  /** Seconds since the epoch; absent when the token has no exp. */
  expiresAt?: number;
  /** The token's `ttl` in seconds, if it has one. */
  ttl?: number;
}

/**
 * Bounds before decoding: the token's text, and the inflated list (checked with Node's zlib, which can stop at a limit;
 * the pako inflate inside @sd-jwt/jwt-status-list cannot, so a small deflate bomb would otherwise take all memory).
 * 1 MiB inflated is 8 Mi statuses at 1 bit, far more than a PID provider's list.
 */
const MAX_TOKEN_CHARS = 1024 * 1024;
const MAX_INFLATED_BYTES = 1024 * 1024;
const BITS: readonly number[] = [1, 2, 4, 8];

/**
 * Verifies a Status List Token in JWT form (Token Status List draft, "Status List Token in JWT Format" and "Validation
 * Rules"): typ statuslist+jwt, alg in the allowlist, x5c chain to the trust anchors (the issuer's own list), signature,
 * `sub` equal to the uri it was fetched from (so a list for another uri cannot be served), `iat` present, `exp` not
 * passed, and `status_list` {bits, lst} decoded with @sd-jwt/jwt-status-list. Every refusal is a WalletCheckError
 * (the checker turns them into `revoked`, failing closed).
 */
/* eslint-disable-next-line complexity -- the Token Status List validation rules in the draft's order, each a guard
   with its own refusal */
export function verifyStatusListToken(jwt: unknown, uri: string, trustAnchors: readonly Uint8Array[], now: Date): VerifiedStatusList {
  if (typeof jwt !== 'string' || jwt.length > MAX_TOKEN_CHARS)
    throw new WalletCheckError('malformed', 'the status list token is not a string of at most 1 MiB');
  const jws = parseCompactJws(jwt, 'status list token');
  if (jws.header.typ !== 'statuslist+jwt') throw new WalletCheckError('unexpected_credential', 'the status list token typ is not statuslist+jwt');
  const alg = allowedAlg(jws.header, 'status list token');
  const chain = verifyCertificateChain(x5cChain(jws.header, 'status list token'), trustAnchors, now);
  if (!verifyEcdsa(alg, chain.leaf.publicKey, jws.signingInput, jws.signature))
    throw new WalletCheckError('invalid_signature', 'the status list token is not signed by its x5c certificate');

  const { payload } = jws;
  if (payload.sub !== uri) throw new WalletCheckError('unexpected_credential', 'the status list token sub is not the uri it was fetched from');
  if (numericDate(payload, 'iat', 'status list token') === undefined) throw new WalletCheckError('malformed', 'the status list token has no iat');
  const expiresAt = numericDate(payload, 'exp', 'status list token');
  if (expiresAt !== undefined && expiresAt <= now.getTime() / 1000) throw new WalletCheckError('expired', 'the status list token is expired');
  const ttl = payload.ttl;
  if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0))
    throw new WalletCheckError('malformed', 'the status list token ttl is not a positive number');

  const statusList = payload.status_list;
  if (!isObject(statusList) || !BITS.includes(statusList.bits as number) || typeof statusList.lst !== 'string') {
    throw new WalletCheckError('malformed', 'status_list is not {bits: 1|2|4|8, lst}');
  }
  // "Status List": lst is base64url of the ZLIB-compressed (RFC 1950) byte array.
  try {
    inflateSync(base64UrlBytes(statusList.lst, 'status_list.lst'), { maxOutputLength: MAX_INFLATED_BYTES });
  } catch (cause) {
    if (cause instanceof WalletCheckError) throw cause;
    throw new WalletCheckError('malformed', `status_list.lst is not a ZLIB stream of at most ${MAX_INFLATED_BYTES} bytes`, { cause });
  }
  let list: StatusList;
  try {
    list = StatusList.decompressStatusList(statusList.lst, statusList.bits as BitsPerStatus);
  } catch (cause) {
    throw new WalletCheckError('malformed', 'status_list.lst does not decode', { cause });
  }
  return {
    list,
    chain,
    ...(payload.iss !== undefined ? { iss: payload.iss } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(ttl !== undefined ? { ttl: ttl as number } : {}),
  };
}
