/** The wallet's direct_post.jwt body (OpenID4VP 1.0 §8.3): the payload as an unsigned JWE to the request's key, with jose. */
import { CompactEncrypt, importJWK, type CryptoKey, type JWK, type KeyObject } from 'jose';
import type { RequestView } from './request-object.js';

export interface EncryptOptions {
  enc?: string;
  alg?: string;
  kid?: string | null;
  /** Encrypt to this key instead of the request's (a key of another request). */
  key?: CryptoKey | KeyObject;
}

export async function encryptResponse(view: RequestView, payload: unknown, options: EncryptOptions = {}): Promise<string> {
  const jwk = view.claims.client_metadata.jwks.keys[0] as JWK;
  const alg = options.alg ?? jwk.alg!;
  const key = options.key ?? (await importJWK({ ...jwk, alg: undefined }, alg));
  const kid = options.kid === undefined ? jwk.kid : options.kid;
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg, enc: options.enc ?? view.claims.client_metadata.encrypted_response_enc_values_supported[0], ...(kid === null ? {} : { kid }) })
    .encrypt(key);
}
