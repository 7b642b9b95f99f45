/**
 * What the wallet checks of a credential it has just received (SD-JWT VC with typ dc+sd-jwt): that it is bound to
 * the key it was issued for (cnf.jwk, SD-JWT VC §3.2.2.2), that the issuer's signature holds under the x5c leaf (a
 * sanity check: the wallet does not judge the issuer's chain), and that every disclosure is referenced (RFC 9901 §7.1).
 */
import { calculateJwkThumbprint, compactVerify, decodeProtectedHeader, importX509, type JWK } from 'jose';
import { isObject } from './http-json.js';
import { disclosablePaths } from './sd-jwt-paths.js';

/** A credential this wallet keeps is an SD-JWT of bounded size. */
const MAX_CREDENTIAL_CHARS = 64 * 1024;
const SIGNING_ALGS = ['ES256', 'ES384', 'ES512', 'EdDSA'];

export interface IssuedCredentialExpectations {
  holderPublicJwk: JWK;
  credentialIssuer: string;
  /** The configuration's vct from the issuer metadata, when it names one. */
  vct?: string;
}

export interface CheckedCredential {
  vct: string;
  /** The names of its selectively disclosable claims, as paths (`name`, `age_equal_or_over.18`): names, never values. */
  disclosableClaims: string[];
}

const pem = (b64: string) => `-----BEGIN CERTIFICATE-----\n${b64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`;

export async function checkIssuedCredential(credential: unknown, expected: IssuedCredentialExpectations): Promise<CheckedCredential> {
  if (typeof credential !== 'string' || credential.length > MAX_CREDENTIAL_CHARS) throw new Error('credential: not a string of bounded size');
  // RFC 9901 §4: an SD-JWT without key binding ends with '~'.
  if (!credential.endsWith('~')) throw new Error('credential: not an SD-JWT without key binding (<jwt>~<disclosures>~)');
  const jwt = credential.split('~')[0];
  const header = decodeProtectedHeader(jwt);
  if (header.typ !== 'dc+sd-jwt') throw new Error(`credential: typ is ${String(header.typ)}, not dc+sd-jwt`);
  if (typeof header.alg !== 'string' || !SIGNING_ALGS.includes(header.alg)) throw new Error('credential: unexpected signing algorithm');
  const x5c = header.x5c;
  if (!Array.isArray(x5c) || x5c.length === 0 || typeof x5c[0] !== 'string') throw new Error('credential: no x5c in the header');
  const { payload: bytes } = await compactVerify(jwt, await importX509(pem(x5c[0]), header.alg), { algorithms: [header.alg] }).catch(() => {
    throw new Error('credential: the signature does not verify under the x5c leaf');
  });
  const payload = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  if (typeof payload.vct !== 'string' || payload.vct === '') throw new Error('credential: no vct');
  if (expected.vct !== undefined && payload.vct !== expected.vct) throw new Error("credential: vct is not the configuration's");
  if (payload.iss !== undefined && payload.iss !== expected.credentialIssuer) throw new Error('credential: iss is not the credential issuer');
  if (typeof payload.exp === 'number' && payload.exp * 1000 < Date.now()) throw new Error('credential: already expired');
  if (payload._sd_alg !== undefined && payload._sd_alg !== 'sha-256') throw new Error('credential: _sd_alg is not sha-256');
  const cnf = payload.cnf;
  if (!isObject(cnf) || !isObject(cnf.jwk)) throw new Error('credential: no cnf.jwk');
  const bound = await calculateJwkThumbprint(cnf.jwk as JWK, 'sha256');
  if (bound !== (await calculateJwkThumbprint(expected.holderPublicJwk, 'sha256'))) throw new Error('credential: cnf.jwk is not the key it was issued for');
  const paths = disclosablePaths(credential);
  const disclosures = credential.split('~').slice(1, -1);
  if (paths.size !== disclosures.length) throw new Error('credential: a disclosure is not referenced by the signed payload');
  return { vct: payload.vct, disclosableClaims: [...paths.keys()].map((p) => p.replace(/^\$\./, '')) };
}
