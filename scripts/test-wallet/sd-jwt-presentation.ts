/**
 * An SD-JWT VC presentation as a wallet makes it (RFC 9901 §4.3): @meeco/sd-jwt selects the disclosures the DCQL
 * claims paths name (never @sd-jwt/*, which the verifier uses), then a key-binding JWT signed with jose over them.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { SDJsonpath } from '@meeco/sd-jwt';
import { SignJWT } from 'jose';
import { sdHasher } from './sd-jwt-paths.js';

type ClaimsPath = (string | number | null)[];

/**
 * A DCQL claims path (OpenID4VP 1.0 §7.1) as @meeco/sd-jwt's JSONPaths: `['a', 'b']` is `$.a.b`; `['a', null]` is
 * every element of array `a`, whose length the holder reads from the array's own disclosure.
 */
export function jsonPaths(credential: string, path: ClaimsPath): string[] {
  if (path[path.length - 1] !== null)
    return [
      `$.${path
        .map((p) => (typeof p === 'number' ? `[${p}]` : p))
        .join('.')
        .replace(/\.\[/g, '[')}`,
    ];
  const name = path[0] as string;
  const disclosures = credential
    .split('~')
    .slice(1)
    .filter(Boolean)
    .map((d) => JSON.parse(Buffer.from(d, 'base64url').toString('utf8')) as unknown[]);
  const array = disclosures.find((d) => d.length === 3 && d[1] === name && Array.isArray(d[2]))?.[2] as unknown[] | undefined;
  return (array ?? []).map((_, i) => `$.${name}[${i}]`);
}

export interface SdJwtPresentationOptions {
  paths: ClaimsPath[];
  /** The JSONPaths to disclose, when the caller has chosen them already (sd-jwt-paths.ts disclosuresFor); else from `paths`. */
  selection?: string[];
  holderKey: KeyObject;
  /** The request's nonce and client_id (the KB-JWT's nonce and aud). */
  nonce: string;
  aud: string;
}

export async function presentSdJwt(credential: string, options: SdJwtPresentationOptions): Promise<string> {
  const selection = options.selection ?? options.paths.flatMap((p) => jsonPaths(credential, p));
  const selected = await SDJsonpath.getJWT(credential, selection, sdHasher);
  const [jwt, ...rest] = selected.split('~');
  const withoutKb = `${[jwt, ...rest.filter((d) => d.length > 0)].join('~')}~`;
  // RFC 9901 §4.3.1: sd_hash over the SD-JWT as presented, up to and including the last '~'.
  const sdHash = createHash('sha256').update(withoutKb, 'ascii').digest('base64url');
  const kb = await new SignJWT({ nonce: options.nonce, aud: options.aud, iat: Math.floor(Date.now() / 1000), sd_hash: sdHash } as never)
    .setProtectedHeader({ alg: 'ES256', typ: 'kb+jwt' })
    .sign(options.holderKey);
  return `${withoutKb}${kb}`;
}
