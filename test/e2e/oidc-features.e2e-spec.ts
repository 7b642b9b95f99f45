import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { purgeExpiredPayloads } from '../../src/oidc/storage/typeorm-adapter.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover, firstResponse, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Spec 2.8: the required members of the provider metadata. */
const REQUIRED_METADATA = [
  'issuer',
  'authorization_endpoint',
  'jwks_uri',
  'response_types_supported',
  'subject_types_supported',
  'id_token_signing_alg_values_supported',
  'token_endpoint',
  'backchannel_token_delivery_modes_supported',
  'backchannel_authentication_endpoint',
  'entity_statement_uri',
];

describe('OIDC features', () => {
  let t: TestApp;
  let issuer: string;
  let admin: ReturnType<typeof adminClient>;
  let merchant: { client_id: string; client_secret: string };
  let config: client.Configuration;

  const login = async (extra: Record<string, string>, person = 'uto-passport', c = config) => {
    const req = await authorizationRequest(c, extra);
    const { callback } = await loginWithTestEid(t.baseUrl, req.url, person);
    const tokens = await client.authorizationCodeGrant(c, callback, { pkceCodeVerifier: req.verifier, expectedState: req.state, expectedNonce: req.nonce });
    return { tokens, claims: tokens.claims()! };
  };

  beforeAll(async () => {
    t = await startTestApp();
    issuer = `${t.baseUrl}/oidc`;
    admin = adminClient(t.baseUrl, t.adminToken);
    merchant = await admin.createMerchant({ name: 'Shop <Ltd>', redirect_uris: [REDIRECT_URI] });
    config = await discover(issuer, merchant.client_id, merchant.client_secret);
  });
  afterAll(() => t?.close());

  describe('discovery', () => {
    let metadata: Record<string, unknown>;
    beforeAll(async () => {
      const res = await fetch(`${t.baseUrl}/oidc/.well-known/openid-configuration`);
      expect(res.status).toBe(200);
      metadata = (await res.json()) as Record<string, unknown>;
    });

    it('has every required member of spec 2.8, at the spec paths', () => {
      for (const field of REQUIRED_METADATA) expect([field, field in metadata]).toEqual([field, true]);
      expect(metadata.issuer).toBe(issuer);
      expect(metadata.authorization_endpoint).toBe(`${t.baseUrl}/its/index.html`);
      expect(metadata.token_endpoint).toBe(`${t.baseUrl}/oidc/token`);
      expect(metadata.userinfo_endpoint).toBe(`${t.baseUrl}/oidc/userinfo`);
      expect(metadata.entity_statement_uri).toBeNull();
      expect(new URL(String(metadata.issuer)).search).toBe('');
    });

    it('advertises what the service supports', () => {
      expect(metadata.response_types_supported).toEqual(['code']);
      expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
      expect(metadata.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['RS256', 'ES256']));
      expect(metadata.subject_types_supported).toEqual(expect.arrayContaining(['public', 'pairwise']));
      expect(metadata.token_endpoint_auth_methods_supported).toEqual(
        expect.arrayContaining(['client_secret_post', 'client_secret_basic', 'client_secret_jwt', 'private_key_jwt']),
      );
      expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'ssn', 'offline_access', 'ageverify18', 'ageverify7']));
      expect(metadata.claims_supported).toEqual(expect.arrayContaining(['facematch_level', 'personal_number', 'authentication_result', 'age_over_18']));
      expect(metadata.ui_locales_supported).toHaveLength(12);
      expect(metadata.request_parameter_supported).toBe(true);
      expect(metadata.request_uri_parameter_supported).toBe(true);
      expect(metadata.claims_parameter_supported).toBe(true);
      expect(metadata.pushed_authorization_request_endpoint).toBe(`${t.baseUrl}/oidc/par`);
      expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
      expect(metadata.acr_values_supported).toEqual(expect.arrayContaining(['urn:svc:acrp:level:high']));
      expect(metadata.id_token_encryption_alg_values_supported).toEqual(['RSA-OAEP-256']);
    });

    it('serves the advertised CIBA endpoint: without client authentication it answers the JSON error object', async () => {
      const res = await fetch(`${t.baseUrl}/oidc/ciba.html`, { method: 'POST' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    });

    it('is correct behind a TLS-terminating proxy when TRUST_PROXY is set', async () => {
      const proxied = await startTestApp({ embedded: true, env: { TRUST_PROXY: 'true' } });
      try {
        const res = await fetch(`${proxied.baseUrl}/oidc/.well-known/openid-configuration`, {
          headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'broker.example' },
        });
        const doc = (await res.json()) as Record<string, string>;
        expect(doc.authorization_endpoint).toBe('https://broker.example/its/index.html');
        expect(doc.token_endpoint).toBe('https://broker.example/oidc/token');
      } finally {
        await proxied.close();
      }
    });
  });

  describe('claims by scope (spec 5.9)', () => {
    it('without ssn: no personal_number', async () => {
      const { claims } = await login({ scope: 'openid profile' });
      expect(claims.primary_identifier).toBe('ERIKSSON');
      expect(claims).not.toHaveProperty('personal_number');
    });

    it('without profile: no identity attributes, but the scope-free verifier claims', async () => {
      const { claims, tokens } = await login({ scope: 'openid' });
      for (const name of ['name', 'primary_identifier', 'secondary_identifier', 'birthdate', 'nationality', 'gender', 'personal_number'])
        expect([name, name in claims]).toEqual([name, false]);
      expect(claims).toMatchObject({ document_number: 'L898902C3', authentication_result: 'pass', facematch_level: 9 });
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      expect(userinfo).not.toHaveProperty('primary_identifier');
    });

    it('ageverify18 releases age_over_18 without the birth date unless profile is granted', async () => {
      const minor = await login({ scope: 'openid ageverify18' }, 'nor-minor');
      expect(minor.claims.age_over_18).toBe(false);
      expect(minor.claims).not.toHaveProperty('birthdate');
      const adult = await login({ scope: 'openid ageverify18' }, 'uto-passport');
      expect(adult.claims.age_over_18).toBe(true);
      expect(adult.claims).not.toHaveProperty('birthdate');
      const withProfile = await login({ scope: 'openid profile ageverify18' }, 'uto-passport');
      expect(withProfile.claims).toMatchObject({ age_over_18: true, birthdate: '12.08.1974' });
    });

    it('lets the claims parameter pick claims within the granted scopes, never past them', async () => {
      const { claims } = await login({
        scope: 'openid profile',
        claims: JSON.stringify({ id_token: { personal_number: null, place_of_birth: { essential: true } } }),
      });
      expect(claims.place_of_birth).toBe('ZENITH');
      expect(claims).not.toHaveProperty('personal_number');
    });

    it('refuses a scope the merchant is not allowed', async () => {
      const limited = await admin.createMerchant({ name: 'Limited', redirect_uris: [REDIRECT_URI], scope: 'openid profile' });
      const c = await discover(issuer, limited.client_id, limited.client_secret);
      const page = await firstResponse(t.baseUrl, (await authorizationRequest(c, { scope: 'openid ssn' })).url);
      expect(new URL(page.location!).searchParams.get('error')).toBe('invalid_scope');
    });

    it('returns eIDAS high acr only when asked for it', async () => {
      const high = await login({ acr_values: 'urn:svc:acrp:level:high' });
      expect(high.claims.acr).toBe('urn:svc:cert:eidas:high');
      const plain = await login({});
      expect(plain.claims.acr).toBeUndefined();
    });
  });

  it('issues refresh tokens for offline_access with prompt=consent and rotates them on use', async () => {
    const { tokens } = await login({ scope: 'openid offline_access', prompt: 'consent' });
    expect(tokens.refresh_token).toBeDefined();
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).toBeDefined();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.claims()?.sub).toBe(tokens.claims()?.sub);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('answers prompt=none without a session with login_required, and max_age=0 asks for a new login', async () => {
    const none = await firstResponse(t.baseUrl, (await authorizationRequest(config, { prompt: 'none' })).url);
    const params = new URL(none.location!).searchParams;
    expect(params.get('error')).toBe('login_required');
    const req = await authorizationRequest(config);
    const { browser } = await loginWithTestEid(t.baseUrl, req.url);
    // Same browser, same merchant: the session is reused without a page...
    const again = await browser.follow(await browser.get((await authorizationRequest(config)).url.toString()));
    expect(new URL(again.location!).searchParams.get('code')).toBeTruthy();
    // ...unless max_age=0 demands a fresh authentication.
    const fresh = await browser.follow(await browser.get((await authorizationRequest(config, { max_age: '0' })).url.toString()));
    expect(fresh.status).toBe(200);
    expect(fresh.html).toContain('data-eid="test"');
  });

  it('does not carry a login from one merchant to another', async () => {
    const other = await admin.createMerchant({ name: 'Other shop', redirect_uris: [REDIRECT_URI] });
    const otherConfig = await discover(issuer, other.client_id, other.client_secret);
    const { browser } = await loginWithTestEid(t.baseUrl, (await authorizationRequest(config)).url);
    const page = await browser.follow(await browser.get((await authorizationRequest(otherConfig)).url.toString()));
    expect(page.status).toBe(200);
    expect(page.html).toContain('Sign in to Other shop');
  });

  it('accepts pushed authorization requests', async () => {
    const verifier = client.randomPKCECodeVerifier();
    const url = await client.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      state: 'par-state',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    const { callback } = await loginWithTestEid(t.baseUrl, url);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'par-state' });
    expect(tokens.access_token).toBeDefined();
  });

  it('refuses an expired access token at user-info (expiry honoured on read) and the purge removes expired rows', async () => {
    const { tokens } = await login({ scope: 'openid' });
    const rows = await t.dataSource.query(`UPDATE oidc_payloads SET expires_at = now() - interval '1 second' WHERE model = 'AccessToken' RETURNING id`);
    expect(rows[0].length).toBeGreaterThan(0);
    const res = await fetch(`${t.baseUrl}/oidc/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(res.status).toBe(401);
    await purgeExpiredPayloads(t.dataSource);
    const left = await t.dataSource.query(`SELECT count(*)::int AS n FROM oidc_payloads WHERE expires_at <= now()`);
    expect(left[0].n).toBe(0);
  });

  it('rotates signing keys through the admin API with an overlap, without restart', async () => {
    const before = (await (await fetch(`${t.baseUrl}/oidc/jwks`)).json()) as { keys: { kid: string }[] };
    const { tokens: oldTokens } = await login({ scope: 'openid' });
    const oldKid = decodeProtectedHeader(oldTokens.id_token!).kid;
    const support = (await admin.call('POST', '/admin/v1/tokens', { role: 'support', label: 'desk' })).body.token as string;
    expect((await adminClient(t.baseUrl, support).call('POST', '/admin/v1/signing-keys/rotate')).status).toBe(403);
    const rotated = await admin.call('POST', '/admin/v1/signing-keys/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.filter((k: { status: string }) => k.status === 'active')).toHaveLength(2);
    const after = (await (await fetch(`${t.baseUrl}/oidc/jwks`)).json()) as { keys: { kid: string; d?: string }[] };
    expect(after.keys.map((k) => k.kid)).toEqual(expect.arrayContaining(before.keys.map((k) => k.kid)));
    expect(after.keys).toHaveLength(before.keys.length + 2);
    expect(after.keys.some((k) => 'd' in k)).toBe(false);
    // Publish first, sign later: the new keys are published now and sign only after two key reload
    // intervals (test/e2e/oidc-key-rotation.e2e-spec.ts follows the switch across two instances).
    const fresh = rotated.body.filter((k: { status: string }) => k.status === 'active');
    for (const k of fresh) expect(Date.parse(k.signs_from)).toBeGreaterThan(Date.now());
    const { tokens } = await login({ scope: 'openid' });
    expect(decodeProtectedHeader(tokens.id_token!).kid).toBe(oldKid);
    const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
    await jwtVerify(tokens.id_token!, jwks, { issuer });
    await jwtVerify(oldTokens.id_token!, jwks, { issuer, currentDate: new Date() });
    const rows = await t.dataSource.query('SELECT private_jwk_sealed FROM signing_keys');
    for (const r of rows) expect(r.private_jwk_sealed).not.toContain('"d"');
  });

  describe('broker pages', () => {
    it('speaks the ui_locale, shows the binding message and svc_context as text, and falls back to en_GB', async () => {
      const req = await authorizationRequest(config, {
        ui_locale: 'nb_NO',
        binding_message: '<script>alert(1)</script> ABC-123',
        svc_context: Buffer.from(JSON.stringify({ amount: '100 NOK <b>' })).toString('base64'),
      });
      const browser = new TestBrowser(t.baseUrl);
      const broker = await browser.follow(await browser.get(req.url.toString()));
      expect(broker.html).toMatch(/data-eid="document-verifier"/);
      expect(broker.html).toContain('ID-dokument med brikke og ansiktsskanning');
      const page = await browser.submit(broker, 'eid', 'test');
      expect(page.html).toContain('<html lang="nb-NO">');
      expect(page.html).toContain('Logg inn på Shop &lt;Ltd&gt;');
      expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; ABC-123');
      expect(page.html).not.toContain('<script>');
      expect(page.html).toContain('amount: 100 NOK &lt;b&gt;');
      expect(page.html).toMatch(/data-person="uto-passport"/);
      const english = new TestBrowser(t.baseUrl);
      const fallback = await english.follow(await english.get((await authorizationRequest(config, { ui_locales: 'xx-YY' })).url.toString()));
      expect(fallback.status).toBe(200);
      expect(fallback.html).toMatch(/data-eid="test"/);
      expect(fallback.html).toContain('<html lang="en-GB">');
      expect(fallback.html).toContain('Sign in to Shop &lt;Ltd&gt;');
    });

    it('falls back from an unknown ui_locale (never refuses the login) and refuses a malformed svc_context', async () => {
      const unknown = new TestBrowser(t.baseUrl);
      const page = await unknown.follow(await unknown.get((await authorizationRequest(config, { ui_locale: 'xx_XX' })).url.toString()));
      expect(page.status).toBe(200);
      expect(page.html).toContain('<html lang="en-GB">');
      const svc = await firstResponse(t.baseUrl, (await authorizationRequest(config, { svc_context: 'not base64 json!' })).url);
      expect(new URL(svc.location!).searchParams.get('error')).toBe('invalid_request');
    });

    it('refuses a form post without the CSRF token, and lets the user cancel', async () => {
      const req = await authorizationRequest(config);
      const browser = new TestBrowser(t.baseUrl);
      const broker = await browser.follow(await browser.get(req.url.toString()));
      expect((await browser.submit(broker, 'eid', 'test', { _csrf: 'forged' })).status).toBe(403);
      const page = await browser.submit(broker, 'eid', 'test');
      const forged = await browser.submit(page, 'person', 'uto-passport', { _csrf: 'forged' });
      expect(forged.status).toBe(403);
      expect(forged.html).toContain('csrf_rejected');
      const cancelled = await browser.follow(await browser.submit(page, 'action', 'cancel'));
      const location = new URL(cancelled.location!);
      expect(location.searchParams.get('error')).toBe('access_denied');
      expect(location.searchParams.get('state')).toBe(req.state);
    });

    it('tells the user when no scheme is available to the merchant', async () => {
      const none = await admin.createMerchant({ name: 'Nothing', redirect_uris: [REDIRECT_URI], eid_schemes: ['bankid-no'] });
      const c = await discover(issuer, none.client_id, none.client_secret);
      const browser = new TestBrowser(t.baseUrl);
      const page = await browser.follow(await browser.get((await authorizationRequest(c)).url.toString()));
      expect(page.html).toContain('No identification method is available');
      expect(page.html).not.toContain('data-eid=');
    });

    it('answers an expired or unknown interaction with an error page', async () => {
      const page = await new TestBrowser(t.baseUrl).get(`${t.baseUrl}/its/interaction/unknown-uid`);
      expect(page.status).toBe(400);
      expect(page.html).toContain('interaction_expired');
    });
  });
});
