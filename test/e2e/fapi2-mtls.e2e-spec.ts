import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { FAPI_REDIRECT_URI } from '../support/fapi2-client.js';
import { BANK_SUBJECT_DN, mtlsClient, startMtlsSetup, type MtlsSetup } from '../support/mtls-setup.js';
import { itWithNginx } from '../support/nginx-tls-proxy.js';
import { TestBrowser, type Page } from '../support/test-browser.js';

/**
 * The FAPI 2.0 Security Profile's second way (SP §5.3.2.1: client authentication by mTLS, RFC 8705; sender-constrained
 * tokens by mTLS): a fapi2 merchant authenticating with its TLS client certificate through Debian's nginx as the
 * TLS-terminating proxy, with openid-client as the bank's relying party: PAR, PKCE, certificate-bound tokens, user-info,
 * refresh, revocation.
 */
describe('FAPI 2.0 with mTLS through nginx: a fapi2 merchant with tls_client_auth', () => {
  let s: MtlsSetup;
  let bank: { client_id: string };

  beforeAll(async () => {
    s = await startMtlsSetup();
    bank = await adminClient(s.directUrl, s.t.adminToken).createMerchant({
      name: 'FAPI mTLS bank',
      redirect_uris: [FAPI_REDIRECT_URI],
      security_profile: 'fapi2',
      token_endpoint_auth_method: 'tls_client_auth',
      tls_client_auth_subject_dn: BANK_SUBJECT_DN,
      id_token_signed_response_alg: 'ES256',
      scope: 'openid profile offline_access',
    });
    expect(bank.client_id).toBeDefined();
  }, 60_000);
  afterAll(async () => s?.close());

  itWithNginx(
    'SP §5.3.2.1-2: PAR authenticated by the certificate, PKCE S256, tokens bound to the certificate (RFC 8705 §3), user-info, refresh, revocation',
    async () => {
      const bankFetch = s.fetchWith(s.bank);
      const config = await mtlsClient(s, bank.client_id, bankFetch);
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = await client.buildAuthorizationUrlWithPAR(config, {
        redirect_uri: FAPI_REDIRECT_URI,
        scope: 'openid profile offline_access',
        prompt: 'consent',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      expect(url.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
      const browser = new TestBrowser(s.t.baseUrl, {}, s.fetchWith());
      let page: Page = await browser.follow(await browser.get(url.toString()));
      if (page.html.includes('data-eid="test"')) page = await browser.submit(page, 'eid', 'test');
      page = await browser.follow(await browser.submit(page, 'person', 'uto-passport'));
      const callback = new URL(page.location!);
      expect(callback.searchParams.get('iss')).toBe(`${s.t.baseUrl}/oidc`);
      const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
      const sub = tokens.claims()!.sub;
      expect((await client.fetchUserInfo(config, tokens.access_token, sub)).sub).toBe(sub);
      // RFC 8705 §3: the same token without the certificate is refused.
      const bare = await s.fetchWith()(`${s.t.baseUrl}/oidc/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(bare.status).toBe(401);
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      // SP §5.3.2.1: no refresh token rotation; the refresh token stays bound to the merchant's certificate.
      expect(refreshed.refresh_token ?? tokens.refresh_token).toBe(tokens.refresh_token);
      expect((await client.fetchUserInfo(config, refreshed.access_token, sub)).sub).toBe(sub);
      await client.tokenRevocation(config, refreshed.access_token);
      expect((await bankFetch(`${s.t.baseUrl}/oidc/userinfo`, { headers: { authorization: `Bearer ${refreshed.access_token}` } })).status).toBe(401);
    },
    60_000,
  );

  itWithNginx('SP §5.3.2.2: without PAR the authorization request is refused, even from the merchant with its certificate', async () => {
    const config = await mtlsClient(s, bank.client_id, s.fetchWith(s.bank));
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: FAPI_REDIRECT_URI,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      state: 's',
    });
    const page = await new TestBrowser(s.t.baseUrl, {}, s.fetchWith()).get(url.toString());
    const location = new URL(page.location!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });
});
