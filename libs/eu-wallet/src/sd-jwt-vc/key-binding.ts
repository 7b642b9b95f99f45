import { createPublicKey, type KeyObject } from 'node:crypto';
import type { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { WalletCheckError } from '../errors.js';
import { allowedAlg, isObject, numericDate, parseCompactJws, sha256B64u, verifyEcdsa } from '../jose/compact-jws.js';

/** The KB-JWT as @sd-jwt/core decodes it (named through sd-jwt-vc, the package this project depends on). */
type DecodedKbJwt = NonNullable<Awaited<ReturnType<SDJwtVcInstance['decode']>>['kbJwt']>;

export interface KeyBindingInput {
  /** The KB-JWT as presented (the text after the last `~`) and as @sd-jwt/core decoded it. */
  encoded: string;
  decoded: DecodedKbJwt;
  /** The issuer-signed payload as signed (cnf is never selectively disclosed: SD-JWT VC, `cnf` claim). */
  issuerPayload: Record<string, unknown>;
  /** `<issuer JWT>~<disclosures>~` exactly as presented, the input of sd_hash (RFC 9901 §4.3.1). */
  presentedWithoutKb: string;
  nonce: string;
  audience: string;
  now: Date;
  maxAgeSeconds: number;
  skewSeconds: number;
}

/** The holder's key from `cnf.jwk` (RFC 7800 §3.2), public and elliptic-curve; the KB-JWT must verify under it. */
function holderKey(issuerPayload: Record<string, unknown>): KeyObject {
  const cnf = issuerPayload.cnf;
  const jwk = isObject(cnf) ? cnf.jwk : undefined;
  if (!isObject(jwk)) throw new WalletCheckError('wrong_binding', 'the credential has no cnf.jwk holder key, so it cannot be bound to this presentation');
  if (jwk.kty !== 'EC' || jwk.d !== undefined) throw new WalletCheckError('malformed', 'cnf.jwk is not a public EC key');
  try {
    return createPublicKey({ key: jwk as never, format: 'jwk' });
  } catch (cause) {
    throw new WalletCheckError('malformed', 'cnf.jwk is not a usable public key', { cause });
  }
}

/**
 * RFC 9901 §7.3 (Verification by the Verifier), step 5, with key binding required (HAIP 1.0 requires it for SD-JWT
 * VC). @sd-jwt/core's `verifyKB` checks `typ`, that `iat`, `aud`, `nonce` and `sd_hash` exist, the signature (through
 * our callback) and `nonce`; it does not look at the values of `aud` and `iat`, and its sd_hash check lives in its
 * `verify`, which we do not call (it would fetch the status list itself). Those checks are here.
 */
export async function verifyKeyBinding(input: KeyBindingInput): Promise<void> {
  const kb = parseCompactJws(input.encoded, 'key binding JWT');
  // RFC 9901 §4.3: the KB-JWT's typ is kb+jwt, so that no other JWT of the holder's can stand in for it.
  if (kb.header.typ !== 'kb+jwt') throw new WalletCheckError('wrong_binding', 'the key binding JWT typ is not kb+jwt');
  const alg = allowedAlg(kb.header, 'key binding JWT');
  const key = holderKey(input.issuerPayload);

  let signature: boolean | undefined;
  try {
    await input.decoded.verifyKB({
      verifier: (data, sig) => (signature = verifyEcdsa(alg, key, data, sig)),
      payload: input.issuerPayload,
      nonce: input.nonce,
    });
  } catch (cause) {
    if (signature === false) throw new WalletCheckError('invalid_signature', 'the key binding JWT is not signed by the cnf key', { cause });
    if (signature === undefined) throw new WalletCheckError('wrong_binding', 'the key binding JWT lacks iat, aud, nonce or sd_hash (RFC 9901 §4.3)', { cause });
    throw new WalletCheckError('wrong_binding', 'the key binding JWT nonce is not this request’s', { cause });
  }
  if (signature !== true) throw new WalletCheckError('invalid_signature', 'the key binding JWT signature was not checked');

  const { payload } = kb;
  // §7.3 step 5.c: nonce and aud are this request's. OpenID4VP 1.0's SD-JWT VC appendix: aud is the Client Identifier as
  // the wallet saw it, its prefix (x509_hash:, redirect_uri:, ...) included, so an audience without the prefix (or another verifier's) is not ours.
  if (payload.nonce !== input.nonce) throw new WalletCheckError('wrong_binding', 'the key binding JWT nonce is not this request’s');
  if (typeof payload.aud !== 'string' || payload.aud !== input.audience)
    throw new WalletCheckError('wrong_binding', 'the key binding JWT aud is not this verifier’s client_id');
  // §7.3 step 5.d: iat within an acceptable window (fresh, and not from the future beyond clock skew).
  const iat = numericDate(payload, 'iat', 'key binding JWT');
  const nowSeconds = input.now.getTime() / 1000;
  if (iat === undefined) throw new WalletCheckError('wrong_binding', 'the key binding JWT has no iat');
  if (iat > nowSeconds + input.skewSeconds) throw new WalletCheckError('wrong_binding', 'the key binding JWT iat is in the future');
  if (nowSeconds - iat > input.maxAgeSeconds) throw new WalletCheckError('wrong_binding', `the key binding JWT is older than ${input.maxAgeSeconds} s`);
  // §7.3 step 5.e / §4.3.1: sd_hash over the presented issuer JWT and Disclosures, as presented (not re-encoded).
  if (payload.sd_hash !== sha256B64u(input.presentedWithoutKb))
    throw new WalletCheckError('wrong_binding', 'the key binding JWT sd_hash is not that of the presented SD-JWT');
}
