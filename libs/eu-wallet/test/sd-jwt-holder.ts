/**
 * The test wallet for SD-JWT VC: @meeco/sd-jwt selects the disclosures (never @sd-jwt/*, which the verifier uses, so a
 * misreading of RFC 9901 is not mirrored on both sides) and jose signs the KB-JWT. Also helpers that re-sign an issuer
 * JWT with the real PID key after a change, so a test reaches the check it means and not the signature check.
 */
import { createHash, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { SDJsonpath } from '@meeco/sd-jwt';
import { SignJWT } from 'jose';
import { es256Signer, type TestSigner, WalletCheckError } from '@identity-broker/eu-wallet';

export const AUDIENCE = 'x509_hash:Uu0lsi0Ai2nE1NeW9x0qTJvWzCfl2Zr7OXNfXcLV8nQ';
export const NONCE = 'n-0S6_WzA2Mj';

export const holderKeys = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });

const meecoHasher = async () => (data: string) => createHash('sha256').update(data).digest('base64url');
const b64uJson = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
export const decodeSegment = (segment: string): Record<string, unknown> => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));

export interface PresentOptions {
  /** JSONPaths (meeco's `$.a.b`, `$.list[1]`) of the claims to disclose. */
  paths: string[];
  holderKey: KeyObject;
  nonce?: string;
  aud?: unknown;
  iat?: Date;
  kbHeader?: Record<string, unknown>;
  /** Replaces the computed sd_hash. */
  sdHash?: string;
  /** Changes `<issuer JWT>~<disclosures>~` before the KB-JWT is made over it (so sd_hash still matches). */
  mutate?: (jwt: string, disclosures: string[]) => [string, string[]];
  /** Leave the KB-JWT out: the presentation ends with `~`. */
  withoutKb?: boolean;
}

/** A presentation as a wallet makes it: the asked disclosures, then a KB-JWT over them (RFC 9901 §4.3). */
export async function present(credential: string, options: PresentOptions): Promise<string> {
  const selected = await SDJsonpath.getJWT(credential, options.paths, meecoHasher);
  const [jwt0, ...rest] = selected.split('~');
  let [jwt, disclosures] = [jwt0, rest.filter((d) => d.length > 0)];
  if (options.mutate) [jwt, disclosures] = options.mutate(jwt, disclosures);
  const withoutKb = `${[jwt, ...disclosures].join('~')}~`;
  if (options.withoutKb) return withoutKb;
  const sdHash = options.sdHash ?? createHash('sha256').update(withoutKb, 'ascii').digest('base64url');
  const iat = Math.floor((options.iat ?? new Date()).getTime() / 1000);
  const kb = await new SignJWT({ nonce: options.nonce ?? NONCE, aud: options.aud ?? AUDIENCE, iat, sd_hash: sdHash } as never)
    .setProtectedHeader({ alg: 'ES256', typ: 'kb+jwt', ...options.kbHeader })
    .sign(options.holderKey);
  return `${withoutKb}${kb}`;
}

/** A new disclosure [salt, name, value] (RFC 9901 §4.2.1), for disclosures the credential never referenced. */
export const makeDisclosure = (...content: unknown[]) => b64uJson([randomBytes(16).toString('base64url'), ...content]);

/** The issuer JWT with header and payload changed, re-signed ES256 with `signer` (x5c kept unless the change drops it). */
export function resign(
  jwt: string,
  signer: TestSigner,
  change: { header?: (h: Record<string, unknown>) => void; payload?: (p: Record<string, unknown>) => void },
): string {
  const [h, p] = jwt.split('.');
  const header = decodeSegment(h);
  const payload = decodeSegment(p);
  change.header?.(header);
  change.payload?.(payload);
  const input = `${b64uJson(header)}.${b64uJson(payload)}`;
  return `${input}.${es256Signer(signer.privateKey)(input)}`;
}

/** The issuer JWT with header and payload changed but the old signature kept (a forgery). */
export function forge(jwt: string, change: { header?: (h: Record<string, unknown>) => void; payload?: (p: Record<string, unknown>) => void }): string {
  const [h, p, s] = jwt.split('.');
  const header = decodeSegment(h);
  const payload = decodeSegment(p);
  change.header?.(header);
  change.payload?.(payload);
  return `${b64uJson(header)}.${b64uJson(payload)}.${s}`;
}

/** `code: message` of a WalletCheckError, 'accepted' if none; any other error fails the test. */
export async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'accepted';
  } catch (e) {
    if (e instanceof WalletCheckError) return `${e.code}: ${e.message}`;
    throw e;
  }
}
