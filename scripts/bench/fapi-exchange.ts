/**
 * A FAPI 2.0 merchant for the token benchmark (docs/oidc.md, FAPI 2.0): its codes come through PAR with a
 * private_key_jwt client assertion and PKCE S256, and each exchange sends a fresh client assertion (ES256) and a DPoP
 * proof (RFC 9449), as a bank's relying party does, made with the tests' own helpers (test/support/fapi2-client.ts,
 * dpop-proof.ts). The client's signing is client work, not counted in the server CPU.
 */
import { createHash, randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import { dpopKeys, dpopProof } from '../../test/support/dpop-proof.js';
import { clientAssertion, FAPI_REDIRECT_URI, type FapiMerchant } from '../../test/support/fapi2-client.js';
import { TestBrowser } from '../../test/support/test-browser.js';
import type { RunningService } from './service.js';

const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

export interface BenchFapiMerchant extends FapiMerchant {
  dpop: Awaited<ReturnType<typeof dpopKeys>>;
}

export async function createFapiMerchant(service: RunningService): Promise<BenchFapiMerchant> {
  const keys = await generateKeyPair('ES256', { extractable: true });
  const kid = 'bench-1';
  const m = await service.createMerchant({
    name: 'bench FAPI 2.0',
    redirect_uris: [FAPI_REDIRECT_URI],
    security_profile: 'fapi2',
    token_endpoint_auth_method: 'private_key_jwt',
    id_token_signed_response_alg: 'ES256',
    jwks: { keys: [{ ...(await exportJWK(keys.publicKey)), kid, use: 'sig' }] },
  });
  if (!m.client_id) throw new Error(`the FAPI merchant was refused: ${JSON.stringify(m)}`);
  return { clientId: m.client_id, clientSecret: m.client_secret, privateKey: keys.privateKey, kid, dpop: await dpopKeys() };
}

/** PAR, then the test eID login at the authorization endpoint with the request_uri; answers the code. */
export async function fapiCode(base: string, m: BenchFapiMerchant): Promise<string> {
  const par = await fetch(`${base}/oidc/par`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      ...(await clientAssertion(m, `${base}/oidc`)),
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
export async function fapiExchange(base: string, m: BenchFapiMerchant, code: string): Promise<{ headers: Record<string, string>; body: URLSearchParams }> {
  const url = `${base}/oidc/token`;
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(m.dpop, { htm: 'POST', htu: url }) },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: FAPI_REDIRECT_URI,
      code_verifier: verifier,
      ...(await clientAssertion(m, `${base}/oidc`)),
    }),
  };
}
