import { redeem as redeemAt, startWalletLogin, walletLinks } from '../support/wallet/wallet-login.js';
import type { Page } from '../support/test-browser.js';
import type { PkceRequest } from '../support/oidc-flow.js';
import { walletWorld, type WalletWorld } from '../support/wallet/wallet-world.js';
import { expectValidVerifiedClaims, expectValidVerifiedClaimsRequest } from '../support/ida-schemas.js';

describe('EU wallet scheme: a merchant logs in with openid-client through the wallet', () => {
  let w: WalletWorld;

  beforeAll(async () => {
    w = await walletWorld();
  }, 120_000);
  afterAll(() => w?.close());

  const startLogin = (scope: string, extra?: Record<string, string>) => startWalletLogin(w, scope, extra);
  const redeem = (done: Page, request: PkceRequest) => redeemAt(w, done, request);

  /** The claims of the ID token beyond the protocol's own: what the merchant learns of the person. */
  const PROTOCOL = new Set([
    'iss',
    'sub',
    'aud',
    'exp',
    'iat',
    'nonce',
    'auth_time',
    'amr',
    'acr',
    'azp',
    'at_hash',
    'c_hash',
    'sid',
    'eid_issuer',
    'eid_scheme',
  ]);
  const personal = (claims: Record<string, unknown>) => Object.fromEntries(Object.entries(claims).filter(([name]) => !PROTOCOL.has(name)));

  const PID_PROFILE = {
    family_name: 'Mustermann',
    primary_identifier: 'Mustermann',
    given_name: 'Erika',
    secondary_identifier: 'Erika',
    name: 'Erika Mustermann',
    ...{ display_name: 'Erika Mustermann', display_given_name: 'Erika', display_family_name: 'Mustermann' },
    document_type: 'EU_PID',
  };
  /** What `openid profile` releases for each credential of the test wallet (spec 2.1 names), and nothing else. */
  const EXPECTED: Record<string, Record<string, unknown>> = {
    pid_sd_jwt: {
      ...PID_PROFILE,
      birthdate: '26.01.1984',
      nationality: 'D',
      interpreted_nationality: 'Germany',
      issuing_country: 'AUT',
      interpreted_issuing_country: 'Austria',
    },
    pid_mdoc: {
      ...PID_PROFILE,
      birthdate: '12.08.1964',
      nationality: 'D',
      interpreted_nationality: 'Germany',
      issuing_country: 'D',
      interpreted_issuing_country: 'Germany',
    },
    mdl: {
      family_name: 'Svensson',
      primary_identifier: 'Svensson',
      given_name: 'Anna',
      secondary_identifier: 'Anna',
      name: 'Anna Svensson',
      display_name: 'Anna Svensson',
      display_given_name: 'Anna',
      display_family_name: 'Svensson',
      document_type: 'DRIVERS_LICENSE',
      birthdate: '03.02.1990',
      issuing_country: 'UTO',
      document_number: 'UT1234567',
    },
  };

  for (const use of ['pid_sd_jwt', 'pid_mdoc', 'mdl']) {
    it(`same device, ${use}: the wallet sends the browser back with a response_code; the merchant gets exactly its profile claims`, async () => {
      const { browser, page, request } = await startLogin('openid profile');
      expect(page.html).toContain('Open wallet');
      // The button opens HAIP wallets; the link under it, plain OpenID4VP ones: the same request, either way.
      const alternate = /<a href="([^"]+)" data-action="open-app-alternate">Wallet did not open\? Try this link<\/a>/
        .exec(page.html)![1]
        .replace(/&amp;/g, '&');
      expect([new URL(walletLinks(page).sameDevice).protocol, new URL(alternate).protocol]).toEqual(['haip-vp:', 'openid4vp:']);
      expect(new URL(alternate).searchParams.get('request_uri')).toBe(new URL(walletLinks(page).sameDevice).searchParams.get('request_uri'));
      const answer = await w.wallet.answer(use === 'mdl' ? alternate : walletLinks(page).sameDevice, { use });
      expect(answer.status).toBe(200);
      const redirect = answer.body.redirect_uri as string;
      expect(redirect).toMatch(/\/its\/eid\/callback\?state=.+&response_code=/);
      const claims = (await redeem(await browser.follow(await browser.get(redirect)), request)).claims()!;
      expect(personal(claims)).toEqual(EXPECTED[use]);
      expect(claims.amr).toEqual(['eudi_wallet', 'pop']);
    });

    it(`another device, ${use}: the page's Continue takes the answer; the same claims`, async () => {
      const { browser, page, request } = await startLogin('openid profile');
      const answer = await w.wallet.answer(walletLinks(page).crossDevice, { use });
      expect([answer.status, answer.body]).toEqual([200, {}]);
      // The page's script presses Continue when the status route says done.
      const status = await (await fetch(`${w.t.baseUrl}${/data-status-url="([^"]+)"/.exec(page.html)![1]}`)).json();
      expect(status).toMatchObject({ step: 'done', done: true });
      expect(personal((await redeem(await browser.submit(page, 'action', 'continue'), request)).claims()!)).toEqual(EXPECTED[use]);
    });
  }

  /** verified_claims as a merchant asks for them (OpenID Connect for Identity Assurance 1.0 §5.3), everything a wallet login states. */
  const RECORD_REQUEST = {
    id_token: {
      verified_claims: {
        verification: {
          trust_framework: null,
          time: null,
          verification_process: null,
          evidence: [
            {
              type: { value: 'electronic_record' },
              check_details: [{ check_method: null, check_id: null, time: null }],
              record: { type: null, created_at: null, date_of_expiry: null, source: { name: null, country_code: null } },
            },
          ],
        },
        claims: { given_name: null, family_name: null, birthdate: null },
      },
    },
  };
  /** Each credential's own type, and its issuing country as an ICAO 3-letter code (the test PKI's organisation is "Test"). */
  const RECORDS = {
    pid_sd_jwt: { type: 'urn:eudi:pid:1', source: { name: 'Test', country_code: 'AUT' } },
    pid_mdoc: { type: 'eu.europa.ec.eudi.pid.1', source: { name: 'Test', country_code: 'DEU' } },
    mdl: { type: 'org.iso.18013.5.1.mDL', source: { name: 'Test', country_code: 'UTO' } },
  };

  it('verified_claims by the claims parameter: the credential as an electronic record checked now, schema-valid, the plain claims restated', async () => {
    expectValidVerifiedClaimsRequest(RECORD_REQUEST);
    for (const use of ['pid_sd_jwt', 'pid_mdoc', 'mdl'] as const) {
      const { browser, page, request } = await startLogin('openid profile', { claims: JSON.stringify(RECORD_REQUEST) });
      const link = walletLinks(page).crossDevice;
      const transaction = new URL(new URL(link).searchParams.get('request_uri')!).pathname.split('/').at(-1)!;
      expect((await w.wallet.answer(link, { use })).status).toBe(200);
      const claims = (await redeem(await browser.submit(page, 'action', 'continue'), request)).claims()!;
      expectValidVerifiedClaims(claims);
      const verified = claims.verified_claims as { verification: Record<string, unknown>; claims: Record<string, unknown> };
      const time = verified.verification.time as string;
      expect(Date.now() - Date.parse(time)).toBeLessThan(60_000);
      expect([use, verified.verification]).toEqual([
        use,
        {
          trust_framework: 'urn:svc:trust-framework:test',
          time,
          verification_process: transaction,
          evidence: [
            {
              type: 'electronic_record',
              check_details: [
                { check_method: 'vcrypt', check_id: `${transaction}.issuer-signature`, time },
                { check_method: 'auth', check_id: `${transaction}.key-binding`, time },
              ],
              record: { ...RECORDS[use], created_at: expect.stringMatching(/Z$/), date_of_expiry: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
            },
          ],
        },
      ]);
      expect(verified.claims).toEqual({
        given_name: claims.given_name,
        family_name: claims.family_name,
        birthdate: (claims.birthdate as string).split('.').reverse().join('-'),
      });
    }
  });

  it('asks a profile merchant for names, birth date, nationality and issuing country; the array of nationalities whole', async () => {
    const { page } = await startLogin('openid profile');
    const request = await w.wallet.read(walletLinks(page).crossDevice);
    const asked = (request.claims.dcql_query.credentials as { id: string; claims: { path: unknown[] }[] }[]).find((c) => c.id === 'pid_sd_jwt')!;
    expect(asked.claims.map((c) => c.path)).toEqual([['issuing_country'], ['family_name'], ['given_name'], ['birthdate'], ['nationalities', null]]);
  });

  it('an ageverify18 merchant gets age_over_18 and no name or birth date (the wallet is asked for nothing else)', async () => {
    for (const use of ['pid_sd_jwt', 'pid_mdoc', 'mdl']) {
      const { browser, page, request } = await startLogin('openid ageverify18');
      const answer = await w.wallet.answer(walletLinks(page).crossDevice, { use });
      const asked = (answer.request.claims.dcql_query.credentials as { id: string; claims: { path: unknown[] }[] }[]).find((c) => c.id === use)!;
      expect(asked.claims.map((c) => c.path.at(-1))).toEqual(
        use === 'pid_sd_jwt'
          ? ['issuing_country', '18']
          : use === 'mdl'
            ? ['issuing_country', 'document_number', 'age_over_18']
            : ['issuing_country', 'age_over_18'],
      );
      const claims = personal((await redeem(await browser.submit(page, 'action', 'continue'), request)).claims()!);
      expect([use, claims.age_over_18]).toEqual([use, true]);
      for (const name of ['given_name', 'family_name', 'birthdate', 'nationality', 'primary_identifier']) expect(claims).not.toHaveProperty(name);
    }
  });

  it('acr eIDAS high for a PID from a provider trusted at high, when asked; never for the mDL', async () => {
    for (const [use, acr] of [
      ['pid_sd_jwt', 'urn:svc:cert:eidas:high'],
      ['pid_mdoc', 'urn:svc:cert:eidas:high'],
      ['mdl', undefined],
    ] as const) {
      const { browser, page, request } = await startWalletLogin(w, 'openid', { acr_values: 'urn:svc:acrp:level:high' });
      expect((await w.wallet.answer(walletLinks(page).crossDevice, { use })).status).toBe(200);
      const claims = (await redeem(await browser.submit(page, 'action', 'continue'), request)).claims()!;
      expect([use, claims.acr]).toEqual([use, acr]);
    }
  });

  it('the mobile driving licence: the subject is the licence, stable across logins; a PID without profile: one-time', async () => {
    const subs: Record<string, string[]> = { mdl: [], pid_sd_jwt: [] };
    for (const [use, scope] of [
      ['mdl', 'openid'],
      ['mdl', 'openid'],
      ['pid_sd_jwt', 'openid ageverify18'],
      ['pid_sd_jwt', 'openid ageverify18'],
    ] as const) {
      const { browser, page, request } = await startLogin(scope);
      expect((await w.wallet.answer(walletLinks(page).crossDevice, { use })).status).toBe(200);
      subs[use].push((await redeem(await browser.submit(page, 'action', 'continue'), request)).claims()!.sub);
    }
    expect(subs.mdl[0]).toBe(subs.mdl[1]);
    expect(subs.pid_sd_jwt[0]).not.toBe(subs.pid_sd_jwt[1]);
  });
});
