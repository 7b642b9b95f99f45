import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import type { adminClient } from './admin-client.js';

/** A fapi2 merchant's redirect URI: https (FAPI 2.0 SP 5.3.2.2); the test browser stops at it, nothing serves it. */
export const FAPI_REDIRECT_URI = 'https://bank.example/callback';

export interface FapiMerchant {
  clientId: string;
  clientSecret: string;
  privateKey: CryptoKey;
  kid: string;
}

/** Registers a fapi2 merchant with private_key_jwt and one signing key of `alg`'s type (the key carries no alg). */
export async function createFapiMerchant(
  admin: ReturnType<typeof adminClient>,
  alg: 'ES256' | 'PS256' = 'ES256',
  name = 'FAPI bank',
  extra: Record<string, unknown> = {},
): Promise<FapiMerchant> {
  const keys = await generateKeyPair(alg, { extractable: true });
  const kid = `${alg.toLowerCase()}-key`;
  const m = await admin.createMerchant({
    name,
    redirect_uris: [FAPI_REDIRECT_URI],
    security_profile: 'fapi2',
    token_endpoint_auth_method: 'private_key_jwt',
    id_token_signed_response_alg: 'ES256',
    scope: 'openid profile ssn offline_access',
    jwks: { keys: [{ ...(await exportJWK(keys.publicKey)), kid, use: 'sig' }] },
    ...extra,
  });
  return { clientId: m.client_id, clientSecret: m.client_secret, privateKey: keys.privateKey, kid };
}

/** openid-client as a bank's relying party configures it: discovery, private_key_jwt with the merchant's key. */
export async function fapiConfiguration(issuer: string, m: FapiMerchant): Promise<client.Configuration> {
  return client.discovery(new URL(issuer), m.clientId, {}, client.PrivateKeyJwt({ key: m.privateKey, kid: m.kid }), {
    execute: [client.allowInsecureRequests],
  });
}

/** An RFC 7523 client assertion as a misbehaving client might make it: its algorithm and audience chosen by the test. */
export async function clientAssertion(
  m: FapiMerchant,
  audience: string,
  alg: string = 'ES256',
  key: CryptoKey = m.privateKey,
): Promise<Record<string, string>> {
  const assertion = await new SignJWT({})
    .setProtectedHeader({ alg, kid: m.kid })
    .setIssuer(m.clientId)
    .setSubject(m.clientId)
    .setAudience(audience)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime('1m')
    .sign(key);
  return { client_id: m.clientId, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion };
}

/** A pushed authorization request's parameters, PKCE S256 included unless the test overrides them. */
export async function pushedParameters(overrides: Record<string, string | undefined> = {}): Promise<Record<string, string>> {
  const verifier = client.randomPKCECodeVerifier();
  const all: Record<string, string | undefined> = {
    response_type: 'code',
    redirect_uri: FAPI_REDIRECT_URI,
    scope: 'openid profile',
    state: client.randomState(),
    nonce: client.randomNonce(),
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined));
}

/** POSTs a form as-is (no client library between the test and the wire) and reads the JSON answer. */
export async function postForm(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: res.status, body, headers: res.headers };
}
