import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { BANK_SUBJECT_DN, CERTIFICATE_HEADER, certificateJwk, mtlsClient, startMtlsSetup, type MtlsSetup } from '../support/mtls-setup.js';
import { itWithNginx } from '../support/nginx-tls-proxy.js';
import { authorizationRequest, REDIRECT_URI } from '../support/oidc-flow.js';
import { TestBrowser, type Page } from '../support/test-browser.js';

describe('RFC 8705 mutual TLS through the TLS-terminating proxy (nginx): a bank as relying party with openid-client', () => {
  let s: MtlsSetup;
  let bank: { client_id: string; client_secret: string };
  let shop: { client_id: string };

  beforeAll(async () => {
    s = await startMtlsSetup();
    const admin = adminClient(s.directUrl, s.t.adminToken);
    bank = await admin.createMerchant({
      name: 'Example Bank',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'tls_client_auth',
      tls_client_auth_subject_dn: BANK_SUBJECT_DN,
      tls_client_certificate_bound_access_tokens: true,
    });
    shop = await admin.createMerchant({
      name: 'Self-signed shop',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'self_signed_tls_client_auth',
      jwks: { keys: [certificateJwk(s.selfSigned)] },
      tls_client_certificate_bound_access_tokens: true,
    });
  }, 60_000);
  afterAll(async () => s?.close());

  /** A login through the proxy as the person's browser (no client certificate), then the code exchange by the client. */
  async function login(config: client.Configuration) {
    const request = await authorizationRequest(config, { scope: 'openid profile offline_access', prompt: 'consent' });
    const browser = new TestBrowser(s.t.baseUrl, {}, s.fetchWith());
    let page: Page = await browser.follow(await browser.get(request.url.toString()));
    if (page.html.includes('data-eid="test"')) page = await browser.submit(page, 'eid', 'test');
    page = await browser.follow(await browser.submit(page, 'person', 'uto-passport'));
    if (!page.location) throw new Error(`expected a redirect to the merchant, got ${page.status}: ${page.html.slice(0, 500)}`);
    return client.authorizationCodeGrant(config, new URL(page.location), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
  }

  const userinfo = (fetchImpl: typeof fetch, accessToken: string, url = `${s.t.baseUrl}/oidc/userinfo`, headers: Record<string, string> = {}) =>
    fetchImpl(url, { headers: { authorization: `Bearer ${accessToken}`, ...headers } });
  const challengeOf = (res: Response) => res.headers.get('www-authenticate') ?? '';

  itWithNginx('RFC 8705 §3.3: discovery says tokens are bound to the certificate, with the mTLS methods and no endpoint aliases (same addresses)', async () => {
    const metadata = (await (await s.fetchWith()(`${s.t.baseUrl}/oidc/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(metadata.tls_client_certificate_bound_access_tokens).toBe(true);
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['tls_client_auth', 'self_signed_tls_client_auth']));
    expect(metadata.mtls_endpoint_aliases).toBeUndefined();
    expect(metadata.token_endpoint).toBe(`${s.t.baseUrl}/oidc/token`);
  });

  itWithNginx(
    'RFC 8705 §2.1 (PKI) and §3: login, token by the TLS client certificate, user-info with the bound token, refresh, revocation',
    async () => {
      const bankFetch = s.fetchWith(s.bank);
      const config = await mtlsClient(s, bank.client_id, bankFetch);
      const tokens = await login(config);
      expect(tokens.token_type.toLowerCase()).toBe('bearer');
      const sub = tokens.claims()!.sub;
      expect((await client.fetchUserInfo(config, tokens.access_token, sub)).sub).toBe(sub);
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      expect((await client.fetchUserInfo(config, refreshed.access_token, sub)).sub).toBe(sub);
      await client.tokenRevocation(config, refreshed.access_token);
      const revoked = await userinfo(bankFetch, refreshed.access_token);
      expect(revoked.status).toBe(401);
      expect(challengeOf(revoked)).toContain('invalid_token');
    },
    60_000,
  );

  itWithNginx(
    'RFC 8705 §3: the bound access token without the certificate, or with another certificate, is refused (invalid_token)',
    async () => {
      const tokens = await login(await mtlsClient(s, bank.client_id, s.fetchWith(s.bank)));
      for (const fetchImpl of [s.fetchWith(), s.fetchWith(s.sameCaOtherSubject), s.fetchWith(s.selfSigned)]) {
        const res = await userinfo(fetchImpl, tokens.access_token);
        expect(res.status).toBe(401);
        expect(challengeOf(res)).toMatch(/error="invalid_token"/);
      }
      // §3 for the refresh token too: another client certificate is not this merchant's (§2.1.2, invalid_client).
      const stranger = await mtlsClient(s, bank.client_id, s.fetchWith(s.sameCaOtherSubject));
      await expect(client.refreshTokenGrant(stranger, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_client' });
      expect((await userinfo(s.fetchWith(s.bank), tokens.access_token)).status).toBe(200);
    },
    60_000,
  );

  itWithNginx(
    'RFC 8705 §2.1.2: a certificate of the trusted CA with another subject, or none, does not authenticate the merchant, nor does its secret (invalid_client)',
    async () => {
      for (const certificate of [s.sameCaOtherSubject, s.selfSigned, undefined]) {
        const res = await s.fetchWith(certificate)(`${s.t.baseUrl}/oidc/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x'.repeat(43), client_id: bank.client_id }).toString(),
        });
        expect(res.status).toBe(401);
        expect(((await res.json()) as { error: string }).error).toBe('invalid_client');
      }
      // Its secret does not authenticate it any more: only the registered method does.
      const basic = await s.fetchWith(s.bank)(`${s.t.baseUrl}/oidc/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${bank.client_id}:${bank.client_secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x'.repeat(43) }).toString(),
      });
      expect(((await basic.json()) as { error: string }).error).toBe('invalid_client');
    },
  );

  itWithNginx(
    'RFC 8705 §2.2: a self-signed certificate registered in jwks authenticates the merchant; one not in its jwks is refused (invalid_client)',
    async () => {
      const config = await mtlsClient(s, shop.client_id, s.fetchWith(s.selfSigned));
      const tokens = await login(config);
      expect((await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)).sub).toBe(tokens.claims()!.sub);
      const impostor = await mtlsClient(s, shop.client_id, s.fetchWith(s.otherSelfSigned));
      await expect(client.refreshTokenGrant(impostor, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_client' });
      const bound = await userinfo(s.fetchWith(s.otherSelfSigned), tokens.access_token);
      expect(challengeOf(bound)).toMatch(/error="invalid_token"/);
    },
    60_000,
  );

  itWithNginx(
    'RFC 8705 §2 and §3: the certificate header sent by a client not behind the proxy is ignored (through the proxy too, nginx overwrites it)',
    async () => {
      const tokens = await login(await mtlsClient(s, bank.client_id, s.fetchWith(s.bank)));
      const forged = { [CERTIFICATE_HEADER]: encodeURIComponent(s.bank.certificatePem), 'x-forwarded-proto': 'https', 'x-forwarded-for': '127.0.0.2' };
      const direct = await userinfo(fetch, tokens.access_token, `${s.directUrl}/oidc/userinfo`, forged);
      expect(direct.status).toBe(401);
      expect(challengeOf(direct)).toMatch(/error="invalid_token"/);
      const throughProxyWithoutCertificate = await userinfo(s.fetchWith(), tokens.access_token, undefined, forged);
      expect(throughProxyWithoutCertificate.status).toBe(401);
      const token = await fetch(`${s.directUrl}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...forged },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: bank.client_id }).toString(),
      });
      expect(((await token.json()) as { error: string }).error).toBe('invalid_client');
    },
    60_000,
  );

  it('RFC 8705 §2.1.2 and §2.2 registration: the admin API refuses a tls_client_auth merchant without exactly one subject, and a self-signed one without a certificate', async () => {
    const admin = adminClient(s.directUrl, s.t.adminToken);
    const base = { name: 'Refused', redirect_uris: [REDIRECT_URI] };
    const refused = [
      { ...base, token_endpoint_auth_method: 'tls_client_auth' },
      { ...base, token_endpoint_auth_method: 'tls_client_auth', tls_client_auth_subject_dn: BANK_SUBJECT_DN, tls_client_auth_san_dns: 'rp.bank.example' },
      { ...base, tls_client_auth_subject_dn: BANK_SUBJECT_DN },
      { ...base, token_endpoint_auth_method: 'self_signed_tls_client_auth' },
      { ...base, tls_client_auth_san_ip: 'not an ip' },
    ];
    for (const fields of refused) expect((await admin.call('POST', '/admin/v1/merchants', fields)).status).toBe(400);
    const shown = await admin.call('GET', `/admin/v1/merchants/${bank.client_id}`);
    expect(shown.body).toMatchObject({
      token_endpoint_auth_method: 'tls_client_auth',
      tls_client_auth_subject_dn: BANK_SUBJECT_DN,
      tls_client_auth_san_dns: null,
      tls_client_certificate_bound_access_tokens: true,
    });
  });
});
