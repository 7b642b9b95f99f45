import * as client from 'openid-client';
import { EID_LOGIN_RECORD, TEST_TRUST_FRAMEWORK } from '../../src/broker/spi/identity-assurance/predefined-values.js';
import { addLogSink, setLogLevel } from '../../src/common/logging/logger.js';
import { adminClient } from '../support/admin-client.js';
import { expectValidVerifiedClaims, expectValidVerifiedClaimsRequest } from '../support/ida-schemas.js';
import { authorizationRequest, discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { parseForms, TestBrowser } from '../support/test-browser.js';
import { errorForMerchant, walk } from '../support/upstream-login.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { startUpstream, type TestUpstream, UPSTREAM_HIGH, UPSTREAM_LOW } from '../support/upstream-provider.js';
import { usersWithVerifiedClaims, VERIFIED_CLAIMS_REQUEST } from '../support/upstream-verified-claims.js';

const KARI = {
  sub: 'kari',
  claims: {
    name: 'Kari Anne Nordmann',
    given_name: 'Kari Anne',
    family_name: 'Nordmann',
    birthdate: '1985-03-07',
    nin: 'NO07038512345',
    nationality_code: 'NOR',
  },
};

/**
 * Issue 14 end to end: a real upstream OpenID provider (a second oidc-provider), registered through the
 * admin API, and a merchant logging in through it with openid-client.
 */
describe('upstream OpenID Connect eID scheme', () => {
  let t: TestApp;
  let upstream: TestUpstream;
  let merchant: { client_id: string; client_secret: string };
  let rp: client.Configuration;
  const admin = () => adminClient(t.baseUrl, t.adminToken);
  const loginCount = async () => Number((await t.dataSource.query('SELECT count(*)::int AS n FROM brokered_logins'))[0].n);

  beforeAll(async () => {
    t = await startTestApp();
    const { verified, malformed } = usersWithVerifiedClaims(KARI);
    upstream = await startUpstream([KARI, verified, malformed], `${t.baseUrl}/its/eid/callback`);
    const created = await admin().call('POST', '/admin/v1/eid-schemes', {
      id: 'upbank',
      labels: { en_GB: 'Up Bank ID', nb_NO: 'Opp BankID' },
      environment: 'customer-test',
      issuer: upstream.issuer,
      client_id: upstream.clientId,
      client_secret: upstream.clientSecret,
      scope: 'openid profile nin',
      acr_values: [UPSTREAM_LOW],
      acr_map: { [UPSTREAM_HIGH]: 'urn:svc:cert:eidas:high' },
      userinfo: true,
      amr: ['upbank', 'mfa'],
      claim_mappers: [
        { type: 'split_name', from: 'name', given: 'secondary_identifier', family: 'primary_identifier' },
        { type: 'copy', from: 'given_name' },
        { type: 'copy', from: 'family_name' },
        { type: 'join', sources: ['given_name', 'family_name'], to: 'name' },
        { type: 'date', from: 'birthdate', to: 'birthdate', format: 'DD.MM.YYYY' },
        { type: 'regex', from: 'nin', to: 'personal_number', pattern: '^NO(\\d{11})$', replacement: '$1' },
        { type: 'rename', from: 'nationality_code', to: 'nationality' },
        { type: 'constant', to: 'authentication_sources', value: 'REMOTE' },
      ],
    });
    if (created.status !== 201) throw new Error(`scheme creation failed: ${created.status} ${created.text}`);
    merchant = await admin().createMerchant({ name: 'Example Shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['upbank'] });
    rp = await discover(`${t.baseUrl}/oidc`, merchant.client_id, merchant.client_secret);
  });
  afterAll(async () => {
    await upstream?.close();
    await t?.close();
  });
  beforeEach(() => {
    upstream.next = { action: 'login', user: 'kari', tamper: undefined };
  });

  async function login(extra: Record<string, string> = {}) {
    const request = await authorizationRequest(rp, extra);
    const browser = new TestBrowser(t.baseUrl);
    const page = await walk(browser, request.url.toString());
    return { request, browser, page };
  }

  /** As far as the upstream's answer to our callback, not yet delivered. */
  async function untilCallback(extra: Record<string, string> = {}) {
    const request = await authorizationRequest(rp, extra);
    const browser = new TestBrowser(t.baseUrl);
    const page = await walk(browser, request.url.toString(), `${t.baseUrl}/its/eid/callback`);
    return { request, browser, callback: new URL(page.location!, page.url).toString() };
  }

  it('logs a merchant in through the upstream: mapped claims in the spec formats, the scheme amr, no acr below high', async () => {
    const { request, page } = await login({ ui_locale: 'nb_NO' });
    if (!page.location) throw new Error(`${page.status} ${page.url} ${page.html.slice(-600)}`);
    expect(upstream.lastAuthorization).toMatchObject({
      ui_locales: 'nb-NO',
      acr_values: UPSTREAM_LOW,
      code_challenge_method: 'S256',
      scope: 'openid profile nin',
    });
    const tokens = await client.authorizationCodeGrant(rp, new URL(page.location!), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      amr: ['upbank', 'mfa'],
      eid_scheme: 'upbank',
      eid_issuer: upstream.issuer,
      primary_identifier: 'Nordmann',
      secondary_identifier: 'Kari Anne',
      given_name: 'Kari Anne',
      family_name: 'Nordmann',
      name: 'Kari Anne Nordmann',
      birthdate: '07.03.1985',
      personal_number: '07038512345',
      nationality: 'NOR',
      authentication_sources: 'REMOTE',
    });
    expect(claims.acr).toBeUndefined();
    expect(claims.sub).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(claims).not.toHaveProperty('nin');
    expect(await loginCount()).toBe(1);
  });

  it('gives acr only when the upstream reached the level the merchant asked for', async () => {
    const { request, page } = await login({ acr_values: 'urn:svc:acrp:level:high' });
    expect(upstream.lastAuthorization?.acr_values).toBe(UPSTREAM_HIGH);
    const tokens = await client.authorizationCodeGrant(rp, new URL(page.location!), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    expect(tokens.claims()).toMatchObject({ acr: 'urn:svc:cert:eidas:high', amr: ['upbank', 'mfa'] });
  });

  it('releases claims by the scopes granted, as for the verifier', async () => {
    const { request, page } = await login({ scope: 'openid' });
    const tokens = await client.authorizationCodeGrant(rp, new URL(page.location!), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ authentication_sources: 'REMOTE', eid_scheme: 'upbank' });
    for (const gated of ['primary_identifier', 'birthdate', 'personal_number', 'name', 'given_name']) expect(claims).not.toHaveProperty(gated);
  });

  describe('verified_claims (OpenID Connect for Identity Assurance 1.0)', () => {
    /** The merchant's verified_claims for a login as `user`, in the ID token and at user-info, each checked against the schema. */
    async function verifiedClaimsOf(user: string) {
      upstream.next.user = user;
      expectValidVerifiedClaimsRequest(VERIFIED_CLAIMS_REQUEST);
      const { request, page } = await login({ claims: JSON.stringify(VERIFIED_CLAIMS_REQUEST) });
      const tokens = await client.authorizationCodeGrant(rp, new URL(page.location!), {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
      });
      const info = await client.fetchUserInfo(rp, tokens.access_token, tokens.claims()!.sub);
      for (const payload of [tokens.claims(), info]) expectValidVerifiedClaims(payload);
      expect(info.verified_claims).toEqual([tokens.claims()!.verified_claims]);
      return tokens.claims()!.verified_claims as { verification: Record<string, unknown>; claims: Record<string, unknown> };
    }
    // The login's plain claims, mapped by the scheme: never the upstream's verified claims (a test upstream says "Not Trusted").
    const claims = { given_name: 'Kari Anne', family_name: 'Nordmann', birthdate: '1985-03-07', nationalities: ['NOR'] };

    it("states the upstream's own verification (its process, time and document, checked by the upstream) and the mapped claims", async () => {
      expect(await verifiedClaimsOf('kari-verified')).toEqual({
        // Outside production every login states the test framework, whatever the upstream asserts (de_aml).
        verification: {
          trust_framework: TEST_TRUST_FRAMEWORK,
          time: '2026-03-01T09:15:30.000Z',
          verification_process: 'upstream-process-0815',
          evidence: [
            {
              type: 'document',
              check_details: [{ check_method: 'vpiruv', check_id: 'kyc-4711', organization: upstream.issuer, time: '2026-03-01T10:14:00.000Z' }],
              document_details: {
                type: 'idcard',
                document_number: 'NO1234567',
                date_of_expiry: '2031-05-31',
                issuer: { name: 'Politiet', country_code: 'NOR' },
              },
            },
          ],
        },
        claims,
      });
    });

    it('states the login itself, an electronic record of the upstream, without verified_claims from it or with malformed ones', async () => {
      const lines: string[] = [];
      const stop = addLogSink((line) => lines.push(line), { capture: true });
      setLogLevel('warn');
      const answers = [];
      try {
        for (const user of ['kari', 'kari-malformed']) answers.push(await verifiedClaimsOf(user));
      } finally {
        setLogLevel('silent');
        stop();
      }
      // The malformed one is named by its place and rule, without a value of the person's.
      const ignored = lines.filter((line) => line.includes('upstream verified_claims ignored'));
      expect(ignored).toHaveLength(1);
      expect(ignored[0]).toContain('verified_claims.verification.trust_framework must be a string');
      expect(ignored[0]).not.toMatch(/NO1234567|Politiet|Trusted|Nordmann|upstream-process-0815/);
      for (const { verification, claims: stated } of answers) {
        const process = String(verification.verification_process);
        expect(verification).toEqual({
          trust_framework: TEST_TRUST_FRAMEWORK,
          time: expect.any(String),
          verification_process: expect.stringMatching(/^[0-9a-f-]{36}$/),
          evidence: [
            {
              type: 'electronic_record',
              check_details: [{ check_method: 'auth', check_id: `${process}.upstream-login`, organization: upstream.issuer, time: verification.time }],
              record: { type: EID_LOGIN_RECORD, source: { name: upstream.issuer } },
            },
          ],
        });
        expect(stated).toEqual(claims);
      }
    });
  });

  describe('each failure ends in the right error for the merchant, with nothing stored', () => {
    let before: number;
    beforeEach(async () => {
      before = await loginCount();
    });
    afterEach(async () => {
      expect(await loginCount()).toBe(before);
    });

    it('user cancel at the upstream: a translated page, then access_denied', async () => {
      upstream.next.action = 'cancel';
      const { browser, page } = await login({ ui_locale: 'de_DE' });
      expect(page.html).toContain('Sie haben die Identifizierung abgebrochen.');
      expect((await errorForMerchant(browser, page)).get('error')).toBe('access_denied');
    });

    it('upstream error: a page, then temporarily_unavailable', async () => {
      upstream.next.action = 'error';
      const { browser, page } = await login();
      expect(page.html).toContain('could not confirm who you are');
      expect((await errorForMerchant(browser, page)).get('error')).toBe('temporarily_unavailable');
    });

    for (const tamper of ['bad-signature', 'wrong-nonce', 'expired'] as const) {
      it(`${tamper} upstream ID token: refused, access_denied`, async () => {
        upstream.next.tamper = tamper;
        const { browser, page } = await login();
        expect((await errorForMerchant(browser, page)).get('error')).toBe('access_denied');
      });
    }

    it('wrong or missing state: the error page, nothing resumed', async () => {
      const { callback } = await untilCallback();
      const wrong = new URL(callback);
      wrong.searchParams.set('state', 'x'.repeat(43));
      const browser = new TestBrowser(t.baseUrl);
      for (const url of [wrong.toString(), callback.replace(/state=[^&]+&?/, '')]) {
        const page = await browser.get(url);
        expect(page.status).toBe(400);
        expect(page.html).toContain('invalid_state');
      }
    });

    it('a state carried to another browser gets nowhere, and stays usable by its own', async () => {
      const { browser, callback, request } = await untilCallback();
      const other = new TestBrowser(t.baseUrl);
      const foreign = await other.follow(await other.get(callback));
      expect(foreign.status).toBe(400);
      const own = await walk(browser, callback);
      expect(new URL(own.location!).searchParams.get('state')).toBe(request.state);
      before += 1;
    });
  });

  it('a replayed callback is refused and stores nothing more', async () => {
    const { browser, callback } = await untilCallback();
    const first = await walk(browser, callback);
    expect(new URL(first.location!).searchParams.get('code')).toBeTruthy();
    const count = await loginCount();
    const replay = await walk(browser, callback);
    expect(replay.status).toBe(400);
    expect(replay.html).toContain('invalid_state');
    expect(await loginCount()).toBe(count);
  });

  it('no longer offers a disabled scheme', async () => {
    expect((await admin().call('POST', '/admin/v1/eid-schemes/upbank/disable')).status).toBe(200);
    try {
      const request = await authorizationRequest(rp);
      const browser = new TestBrowser(t.baseUrl);
      const page = await browser.follow(await browser.get(request.url.toString()));
      expect(parseForms(page.html).filter((f) => f.attributes['data-eid'])).toEqual([]);
    } finally {
      expect((await admin().call('POST', '/admin/v1/eid-schemes/upbank/enable')).status).toBe(200);
    }
  });
});
