/**
 * The wallet's side of OpenID4VCI 1.0 for tests: key proofs (Appendix F.1) and DPoP proofs (RFC 9449 §4.2) made with
 * jose and node:crypto only (no @openid4vc code), so the issuer's checks meet an independent reading of the specs.
 * Helpers also make the broken proofs a test needs: a changed header, a forged signature, alg none, HS256.
 */
import { createHash, createHmac, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { CredentialIssuerError } from '@identity-broker/eu-wallet';

export const ISSUER = 'https://broker.test.invalid/vci';
export const C_NONCE = 'c-nonce-Zq3vT0pWcR8n';

export interface WalletKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  alg: 'ES256' | 'ES384' | 'ES512' | 'EdDSA';
  jwk: Record<string, unknown>;
}

export function walletKey(alg: WalletKey['alg'] = 'ES256'): WalletKey {
  const pair =
    alg === 'EdDSA' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' }[alg] });
  return { ...pair, alg, jwk: pair.publicKey.export({ format: 'jwk' }) as Record<string, unknown> };
}

export interface ProofOptions {
  header?: Record<string, unknown>;
  payload?: Record<string, unknown>;
  /** Members removed from the header or payload after the options are applied, e.g. ['jwk'] or ['nonce']. */
  dropHeader?: string[];
  dropPayload?: string[];
  now?: Date;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

async function signed(key: WalletKey, header: Record<string, unknown>, payload: Record<string, unknown>, options: ProofOptions): Promise<string> {
  const h: Record<string, unknown> = { ...header, ...options.header };
  const p: Record<string, unknown> = { ...payload, ...options.payload };
  for (const name of options.dropHeader ?? []) delete h[name];
  for (const name of options.dropPayload ?? []) delete p[name];
  return new SignJWT(p).setProtectedHeader(h as never).sign(key.privateKey);
}

/** An OpenID4VCI 1.0 Appendix F.1 jwt key proof, as a wallet makes it. */
export function keyProof(key: WalletKey, options: ProofOptions = {}): Promise<string> {
  const iat = seconds(options.now ?? new Date());
  return signed(key, { typ: 'openid4vci-proof+jwt', alg: key.alg, jwk: key.jwk }, { aud: ISSUER, iat, nonce: C_NONCE }, options);
}

/** An RFC 9449 §4.2 DPoP proof. */
export function dpopProof(key: WalletKey, request: { method: string; url: string; accessToken?: string }, options: ProofOptions = {}): Promise<string> {
  const iat = seconds(options.now ?? new Date());
  const ath = request.accessToken ? createHash('sha256').update(request.accessToken, 'ascii').digest('base64url') : undefined;
  return signed(
    key,
    { typ: 'dpop+jwt', alg: key.alg, jwk: key.jwk },
    { htm: request.method, htu: request.url, iat, jti: `jti-${Math.random()}`, ...(ath ? { ath } : {}) },
    options,
  );
}

const b64u = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decode = (segment: string) => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>;

/** The JWT with its header changed and the signature kept (a forgery). */
export function forgeHeader(jwt: string, change: (header: Record<string, unknown>) => void): string {
  const [h, p, s] = jwt.split('.');
  const header = decode(h);
  change(header);
  return `${b64u(header)}.${p}.${s}`;
}

/** alg none (RFC 7519 §6): an empty signature. */
export function unsecured(jwt: string): string {
  const [h, p] = jwt.split('.');
  return `${b64u({ ...decode(h), alg: 'none' })}.${p}.`;
}

/** HS256 with the public key's x as the secret: the old algorithm-confusion attack. */
export function hs256(jwt: string): string {
  const [h, p] = jwt.split('.');
  const header = decode(h);
  const input = `${b64u({ ...header, alg: 'HS256' })}.${p}`;
  return `${input}.${createHmac('sha256', String((header.jwk as { x: string }).x))
    .update(input)
    .digest('base64url')}`;
}

/** `code: description` of a CredentialIssuerError, 'accepted' if none; any other exception fails the test. */
export async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (e) {
    if (e instanceof CredentialIssuerError) return `${e.code}: ${e.description}`;
    throw e;
  }
  return 'accepted';
}
