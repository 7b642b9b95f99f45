/**
 * A FAPI 2.0 merchant for the token benchmark (docs/oidc.md, FAPI 2.0): its codes come through PAR with a
 * private_key_jwt client assertion and PKCE S256, and each exchange sends a fresh client assertion (ES256) and a DPoP
 * proof (RFC 9449), as a bank's relying party does. The client's signing is client work, not counted in the server CPU.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { TestBrowser } from '../../test/support/test-browser.js';
import type { RunningService } from './service.js';

export const FAPI_REDIRECT_URI = 'https://merchant.example/callback';
const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

export interface FapiMerchant {
  clientId: string;
  clientKey: CryptoKey;
  dpopKey: CryptoKey;
  dpopJwk: JWK;
}

export async function createFapiMerchant(service: RunningService): Promise<FapiMerchant> {
  const client = await generateKeyPair('ES256', { extractable: true });
  const dpop = await generateKeyPair('ES256', { extractable: true });
  const m = await service.createMerchant({
    name: 'bench FAPI 2.0',
    redirect_uris: [FAPI_REDIRECT_URI],
    security_profile: 'fapi2',
    token_endpoint_auth_method: 'private_key_jwt',
    id_token_signed_response_alg: 'ES256',
    jwks: { keys: [{ ...(await exportJWK(client.publicKey)), kid: 'bench-1', use: 'sig' }] },
  });
  if (!m.client_id) throw new Error(`the FAPI merchant was refused: ${JSON.stringify(m)}`);
  return { clientId: m.client_id, clientKey: client.privateKey, dpopKey: dpop.privateKey, dpopJwk: await exportJWK(dpop.publicKey) };
}

/** private_key_jwt (RFC 7523 §2.2); FAPI 2.0 wants the issuer as its audience. */
async function clientAssertion(base: string, m: FapiMerchant): Promise<string> {
  return new SignJWT({ jti: randomUUID() })
    .setProtectedHeader({ alg: 'ES256', kid: 'bench-1' })
    .setIssuer(m.clientId)
    .setSubject(m.clientId)
    .setAudience(`${base}/oidc`)
    .setIssuedAt()
    .setExpirationTime('60s')
    .sign(m.clientKey);
}

/** A DPoP proof for one request (RFC 9449 §4.2). */
export async function dpopProof(m: FapiMerchant, method: string, url: string): Promise<string> {
  return new SignJWT({ htm: method, htu: url, jti: randomUUID() })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: m.dpopJwk })
    .setIssuedAt()
    .sign(m.dpopKey);
}

const assertionType = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** PAR, then the test eID login at the authorization endpoint with the request_uri; answers the code. */
export async function fapiCode(base: string, m: FapiMerchant): Promise<string> {
  const par = await fetch(`${base}/oidc/par`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: m.clientId,
      client_assertion_type: assertionType,
      client_assertion: await clientAssertion(base, m),
      response_type: 'code',
      scope: 'openid profile',
      redirect_uri: FAPI_REDIRECT_URI,
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      login_hint: 'eid:test',
    }),
  });
  const { request_uri: requestUri } = (await par.json()) as { request_uri?: string };
  if (!requestUri) throw new Error(`PAR refused: ${par.status}`);
  const browser = new TestBrowser(base);
  let page = await browser.follow(await browser.get(`${base}/its/index.html?${new URLSearchParams({ client_id: m.clientId, request_uri: requestUri })}`));
  page = await browser.follow(await browser.submit(page, 'person', 'uto-passport'));
  return new URL(page.location!).searchParams.get('code')!;
}

/** The body and headers of one FAPI code exchange. */
export async function fapiExchange(base: string, m: FapiMerchant, code: string): Promise<{ headers: Record<string, string>; body: URLSearchParams }> {
  const url = `${base}/oidc/token`;
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(m, 'POST', url) },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: FAPI_REDIRECT_URI,
      code_verifier: verifier,
      client_id: m.clientId,
      client_assertion_type: assertionType,
      client_assertion: await clientAssertion(base, m),
    }),
  };
}
