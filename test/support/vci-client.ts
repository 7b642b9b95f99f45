import { createHash, randomBytes } from 'node:crypto';
import { dpopProof, keyProof, offerFor, testKey, type TestKey } from './credential-issuer.js';
import type { TestApp } from './test-app.js';

export const PRE_AUTH = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * A wallet's requests to the credential issuer at `base` (an instance, or a router in front of several), with
 * offers made through `t`'s services as the broker makes them. Every DPoP proof and key proof is passed in or made
 * fresh; `iat` follows `clock` (seconds), for tests that move the service's clock.
 */
export function vciClient(t: TestApp, base = t.baseUrl, clock = () => Math.floor(Date.now() / 1000)) {
  const url = (path: string) => `${base}${path}`;
  const issuer = `${t.baseUrl}/vci`;
  const tokenProof = (key: TestKey) => dpopProof(key, 'POST', `${t.baseUrl}/vci/token`, { iat: clock() });

  const token = async (key: TestKey, form: Record<string, string>, proof?: string) =>
    fetch(url('/vci/token'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: proof ?? (await tokenProof(key)) },
      body: new URLSearchParams(form),
    });

  /** An offer's codes, as the wallet reads them from the credential_offer_uri. */
  const offerCodes = async () => {
    const made = await offerFor(t);
    const offer = (await (await fetch(made.offerUri.replace(t.baseUrl, base))).json()) as { grants: Record<string, { 'pre-authorized_code': string }> };
    return { grant_type: PRE_AUTH, 'pre-authorized_code': offer.grants[PRE_AUTH]['pre-authorized_code'], tx_code: made.offer.txCode };
  };

  /** A DPoP-bound access token for `key`, from a fresh offer. */
  const accessToken = async (key: TestKey) => {
    const res = await token(key, await offerCodes());
    if (res.status !== 200) throw new Error(`token request: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };

  const nonce = async () => ((await (await fetch(url('/vci/nonce'), { method: 'POST' })).json()) as { c_nonce: string }).c_nonce;

  const credentialProof = (key: TestKey, token: string) => dpopProof(key, 'POST', `${t.baseUrl}/vci/credential`, { ath: ath(token), iat: clock() });

  /** A credential request with one key proof over `cNonce` (by a fresh holder key). */
  const credential = async (key: TestKey, token: string, cNonce: string, proof?: string, keyProofJwt?: string) =>
    fetch(url('/vci/credential'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `DPoP ${token}`, dpop: proof ?? (await credentialProof(key, token)) },
      body: JSON.stringify({
        credential_configuration_id: 'verified_document_identity',
        proofs: { jwt: [keyProofJwt ?? (await keyProof(await testKey(), issuer, cNonce, { iat: clock() }))] },
      }),
    });

  return { url, issuer, token, tokenProof, offerCodes, accessToken, nonce, credentialProof, credential };
}

/** Status and OAuth error code of an answer (its body read). */
export const errorOf = async (res: Response) => ({ status: res.status, error: ((await res.json()) as { error?: string }).error });

/** A value the service never made, of the usual length (a made-up code, token or verifier). */
export const madeUp = () => randomBytes(32).toString('base64url');
