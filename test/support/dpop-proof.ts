import { createHash, randomUUID } from 'node:crypto';
import { exportJWK, SignJWT } from 'jose';
import * as client from 'openid-client';

/** What a DPoP proof (RFC 9449 §4.2) claims; a test leaves out or changes one to play a broken or attacking client. */
export interface ProofClaims {
  htm: string;
  htu: string;
  /** Seconds since the epoch; default now. */
  iat?: number;
  jti?: string;
  /** The access token the proof goes with: its hash becomes `ath`. */
  accessToken?: string;
  /** An `ath` of the test's own (instead of the token's hash). */
  ath?: string;
  nonce?: string;
}

export const athOf = (token: string) => createHash('sha256').update(token, 'ascii').digest('base64url');

export const dpopKeys = () => client.randomDPoPKeyPair('ES256', { extractable: false });

/** A DPoP proof signed by `keys`, carrying their public key, as RFC 9449 §4.2 lays it out. */
export async function dpopProof(keys: client.CryptoKeyPair, claims: ProofClaims): Promise<string> {
  const ath = claims.ath ?? (claims.accessToken ? athOf(claims.accessToken) : undefined);
  return new SignJWT({ htm: claims.htm, htu: claims.htu, jti: claims.jti ?? randomUUID(), ...(ath && { ath }), ...(claims.nonce && { nonce: claims.nonce }) })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await exportJWK(keys.publicKey) })
    .setIssuedAt(claims.iat ?? Math.floor(Date.now() / 1000))
    .sign(keys.privateKey);
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { text };
  }
  return { status: res.status, body, headers: res.headers };
}

/** A token request as a merchant authenticated by its secret sends it, with a DPoP header when `proof` is given. */
export async function tokenRequest(
  url: string,
  merchant: { client_id: string; client_secret: string },
  params: Record<string, string>,
  proof?: string,
  headers: Record<string, string> = {},
) {
  const basic = Buffer.from(`${merchant.client_id}:${merchant.client_secret}`).toString('base64');
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', ...(proof && { dpop: proof }), ...headers },
    body: new URLSearchParams(params),
  });
  return answer(res);
}

/** A user-info request: the token under `scheme` (DPoP or Bearer), with a DPoP header when `proof` is given. */
export async function userinfoRequest(url: string, token: string, proof?: string, scheme = 'DPoP', method = 'GET') {
  const res = await fetch(url, { method, headers: { authorization: `${scheme} ${token}`, accept: 'application/json', ...(proof && { dpop: proof }) } });
  return answer(res);
}
