import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { BANK_SUBJECT_DN, mtlsClient, startMtlsSetup, type ClientCertificate, type MtlsSetup } from '../support/mtls-setup.js';
import { itWithNginx } from '../support/nginx-tls-proxy.js';
import { REDIRECT_URI } from '../support/oidc-flow.js';

const OTHER_BANK_SUBJECT_DN = 'CN=rp.other-bank.example,O=Example Bank,C=NO';

describe("RFC 8705 §2.1 with the CA's CRL (CLIENT_CERT_CRL_FILE): a revoked certificate no longer authenticates its merchant", () => {
  let s: MtlsSetup;
  let bank: { client_id: string };
  let otherBank: { client_id: string };

  beforeAll(async () => {
    s = await startMtlsSetup({ crlRevoking: ['bank'] });
    const admin = adminClient(s.directUrl, s.t.adminToken);
    const merchant = (name: string, dn: string) =>
      admin.createMerchant({ name, redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'tls_client_auth', tls_client_auth_subject_dn: dn });
    [bank, otherBank] = await Promise.all([merchant('Example Bank', BANK_SUBJECT_DN), merchant('Other Bank', OTHER_BANK_SUBJECT_DN)]);
  }, 60_000);
  afterAll(async () => s?.close());

  /** A token request whose grant is made up: invalid_client if the certificate does not authenticate, invalid_grant if it does. */
  async function tokenError(certificate: ClientCertificate, clientId: string): Promise<{ status: number; error: string }> {
    const res = await s.fetchWith(certificate)(`${s.t.baseUrl}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x'.repeat(43), client_id: clientId }).toString(),
    });
    return { status: res.status, error: ((await res.json()) as { error: string }).error };
  }

  const pushedRequest = async (clientId: string, certificate: ClientCertificate) =>
    client.buildAuthorizationUrlWithPAR(await mtlsClient(s, clientId, s.fetchWith(certificate)), {
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      state: client.randomState(),
      nonce: client.randomNonce(),
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });

  itWithNginx('the certificate the CRL lists gets invalid_client at the token and PAR endpoints', async () => {
    expect(await tokenError(s.bank, bank.client_id)).toEqual({ status: 401, error: 'invalid_client' });
    await expect(pushedRequest(bank.client_id, s.bank)).rejects.toMatchObject({ error: 'invalid_client' });
  });

  itWithNginx('a certificate of the same CA that the CRL does not list still authenticates its merchant', async () => {
    expect(await tokenError(s.sameCaOtherSubject, otherBank.client_id)).toEqual({ status: 400, error: 'invalid_grant' });
    const url = await pushedRequest(otherBank.client_id, s.sameCaOtherSubject);
    expect(url.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
  });
});
