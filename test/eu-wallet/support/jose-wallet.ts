/**
 * The wallet's side of OpenID4VP 1.0 for tests, with jose and node:crypto only (no @openid4vc code), so the
 * verifier's request and response code is checked against an independent reading of the specification.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { CompactEncrypt, compactVerify, decodeProtectedHeader, importJWK, importX509, type CryptoKey, type JWK, type KeyObject } from 'jose';
import { WalletCheckError } from '../../../libs/eu-wallet/src/errors.js';

export interface WalletView {
  header: Record<string, unknown>;
  claims: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  x5c: Buffer[];
}

const pem = (der: Buffer) => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`;

/**
 * What a HAIP wallet does with a request object (OpenID4VP 1.0 §5.9.3, HAIP 1.0 §5): typ, signature by the x5c
 * leaf, client_id = x509_hash of that leaf, the chain ends under the trusted root, which is not itself in x5c.
 */
export async function walletReadsRequest(jwt: string, trustedRoot: Uint8Array): Promise<WalletView> {
  const header = decodeProtectedHeader(jwt) as Record<string, unknown>;
  if (header.typ !== 'oauth-authz-req+jwt' || header.alg !== 'ES256') throw new Error(`wallet: header ${JSON.stringify(header)}`);
  const x5c = (header.x5c as string[]).map((b64) => Buffer.from(b64, 'base64'));
  const { payload } = await compactVerify(jwt, await importX509(pem(x5c[0]), 'ES256'));
  const claims = JSON.parse(new TextDecoder().decode(payload));
  const hash = createHash('sha256').update(x5c[0]).digest('base64url');
  if (claims.client_id !== `x509_hash:${hash}`) throw new Error('wallet: client_id is not the x509_hash of the leaf');
  const root = new X509Certificate(trustedRoot);
  if (x5c.some((der) => der.equals(root.raw))) throw new Error('wallet: the trust anchor is in x5c');
  if (!new X509Certificate(x5c[x5c.length - 1]).verify(root.publicKey)) throw new Error('wallet: chain does not end under the trusted root');
  return { header, claims, x5c };
}

export interface EncryptOptions {
  enc?: string;
  alg?: string;
  kid?: string | null;
  /** Encrypt to this key instead of the request's (a key of another request). */
  key?: CryptoKey | KeyObject;
}

/** The wallet's direct_post.jwt body: the payload as an unsigned JWE to the request's key (1.0 §8.3). */
export async function walletEncrypts(view: WalletView, payload: unknown, options: EncryptOptions = {}): Promise<string> {
  const jwk = view.claims.client_metadata.jwks.keys[0] as JWK;
  const alg = options.alg ?? jwk.alg!;
  const key = options.key ?? (await importJWK({ ...jwk, alg: undefined }, alg));
  const kid = options.kid === undefined ? jwk.kid : options.kid;
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg, enc: options.enc ?? view.claims.client_metadata.encrypted_response_enc_values_supported[0], ...(kid === null ? {} : { kid }) })
    .encrypt(key);
}

/** `code: message` of a WalletCheckError, 'accepted' if none; any other exception fails the test. */
export async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (e) {
    if (e instanceof WalletCheckError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'accepted';
}
