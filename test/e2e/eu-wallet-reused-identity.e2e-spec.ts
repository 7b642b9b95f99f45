/**
 * The service's own reusable credential through the EU wallet scheme, end to end: a stand-in provider of the
 * ReusableCredentials extension point (the credential issuer is built elsewhere), credentials issued under the
 * contract's claim names, a holder that answers the broker's DCQL query (test/support/wallet/reused-identity.ts).
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStatusList, createTestRoot, createTestSigner, type TestSigner } from '@identity-broker/eu-wallet';
import { verifiedDocumentSubject } from '../../src/broker/spi/subjects/document-subject.js';
import { WalletTestAuthoritiesService } from '../../src/schemes/eu-wallet/trust/wallet-test-authorities.service.js';
import { TestWallet } from '../../scripts/test-wallet/wallet.js';
import { adminClient } from '../support/admin-client.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp } from '../support/test-app.js';
import {
  issueReusableCredential,
  ReusedIdentityHolder,
  reusedIdentityIssuer,
  reusedIdentitySpecimen,
  reusedIdentityVct,
  standInReusableCredentials,
} from '../support/wallet/reused-identity.js';
import { redeem, refusalShown, startWalletLogin, walletLinks } from '../support/wallet/wallet-login.js';
import { expectValidVerifiedClaims, expectValidVerifiedClaimsRequest } from '../support/ida-schemas.js';
import type { WalletWorld } from '../support/wallet/wallet-world.js';

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
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
const ALWAYS = ['issuing_country', 'document_type', 'document_number', 'date_of_expiry', 'verified_at', 'facematch_level'].map((n) => [n]);

describe("EU wallet scheme: the service's own reusable credential", () => {
  let w: WalletWorld;
  let issuerSigner: TestSigner;
  /** Under the trusted root, a certificate naming another issuer: its credentials pass the chain and iss rules, not the provider's. */
  let elsewhere: TestSigner;
  let stranger: TestSigner;
  let statusServer: Server;
  let wallet: TestWallet;
  const holderKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  beforeAll(async () => {
    const dates = { notBefore: new Date(Date.now() - 86_400_000), notAfter: new Date(Date.now() + 365 * 86_400_000) };
    const issuerRoot = await createTestRoot({ ...dates, commonName: 'Stand-in Credential Issuer CA' });
    const under = (uri?: string) => createTestSigner({ ...dates, root: issuerRoot, rootName: 'unused', signerName: 'Stand-in credential signer', uri });
    stranger = await createTestSigner({ rootName: 'Stranger CA', signerName: 'Stranger signer' });
    // The service's own issuer is off: a stand-in takes its place, so that the test can issue what the issuer never would
    // (an old verification, another iss, another root). test/e2e/credential-issuer-flow.e2e-spec.ts runs the real one.
    // The stand-in trusts the root; the signers under it name their iss (a SAN URI, as the real issuer's), known once the app has its address.
    const t = await startTestApp({ env: { VCI_ENABLED: 'false' }, modules: [standInReusableCredentials(await under())] });
    [issuerSigner, elsewhere] = await Promise.all([under(reusedIdentityIssuer(t.baseUrl)), under('https://elsewhere.example/vci')]);
    const authorities = await t.app.get(WalletTestAuthoritiesService).get();
    // Index 0 valid, 1 revoked: the issuer's status list, signed under its root.
    statusServer = createServer((_req, res) => {
      const uri = `http://127.0.0.1:${(statusServer.address() as AddressInfo).port}/status/1`;
      res
        .writeHead(200, { 'content-type': 'application/statuslist+jwt' })
        .end(createStatusList({ signer: issuerSigner, uri, bits: 1, values: [0, 1, 0, 0, 0, 0, 0, 0], ttl: 1 }));
    });
    await new Promise<void>((resolve) => statusServer.listen(0, '127.0.0.1', resolve));
    const statusUri = `http://127.0.0.1:${(statusServer.address() as AddressInfo).port}/status/1`;
    wallet = new TestWallet(authorities.requestSigner.root, []);
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({ name: 'Reuse shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['eu-wallet'] });
    w = {
      t,
      merchant: await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret),
      wallet,
      authorities,
      statusUri,
      close: async () => {
        await new Promise((resolve) => statusServer.close(resolve));
        await t.close();
      },
    };
  }, 120_000);
  afterAll(() => w?.close());

  /** A holder of a credential: by default the contract's specimen from the stand-in issuer, verified today, valid. */
  async function holderOf(options: { signer?: TestSigner; iss?: string; claims?: Record<string, unknown>; idx?: number; expiresAt?: Date } = {}) {
    const credential = await issueReusableCredential({
      signer: options.signer ?? issuerSigner,
      holderKey: holderKey.publicKey,
      iss: options.iss ?? reusedIdentityIssuer(w.t.baseUrl),
      vct: reusedIdentityVct(w.t.baseUrl),
      claims: options.claims ?? reusedIdentitySpecimen(day(0)),
      status: { uri: w.statusUri, idx: options.idx ?? 0 },
      expiresAt: options.expiresAt,
    });
    return new ReusedIdentityHolder(wallet, credential, holderKey.privateKey);
  }

  /** A login with `scope` answered by `holder` on another device; the merchant's claims, or the notice the person reads. */
  async function login(holder: ReusedIdentityHolder, scope: string, extra: Record<string, string> = {}, merchant = w.merchant) {
    const { browser, page, request } = await startWalletLogin({ ...w, merchant }, scope, extra);
    const answer = await holder.answer(walletLinks(page).crossDevice);
    const done = await browser.submit(page, 'action', 'continue');
    if (answer.status !== 200) return { answer, notice: refusalShown(done) };
    return { answer, claims: (await redeem({ ...w, merchant }, done, request)).claims()! };
  }

  it('profile: the claims of spec 2.1 as the document verifier gives them, verified_at, and the document’s own sub', async () => {
    const verifiedAt = day(0);
    const { answer, claims } = await login(await holderOf(), 'openid profile');
    // Gender and place of birth through claim_sets (optional); no age statement, personal number or assurance asked.
    expect(answer.asked).toEqual([
      ...ALWAYS,
      ['primary_identifier'],
      ['name'],
      ['nationality'],
      ['birthdate'],
      ['secondary_identifier'],
      ['gender'],
      ['place_of_birth'],
    ]);
    expect(personal(claims!)).toEqual({
      document_type: 'PASSPORT',
      issuing_country: 'D',
      interpreted_issuing_country: 'Germany',
      document_number: 'C01X00T47',
      date_of_expiry: '31.10.2031',
      primary_identifier: 'MUSTERMANN',
      secondary_identifier: 'ERIKA',
      family_name: 'MUSTERMANN',
      given_name: 'ERIKA',
      name: 'ERIKA MUSTERMANN',
      display_name: 'Erika Mustermann',
      display_given_name: 'Erika',
      display_family_name: 'Mustermann',
      nationality: 'D',
      interpreted_nationality: 'Germany',
      birthdate: '12.08.1964',
      gender: 'FEMALE',
      place_of_birth: 'BERLIN',
      facematch_level: 7,
      authentication_sources: ['REUSED_CREDENTIAL'],
      authentication_result: 'pass',
      verified_at: verifiedAt,
    });
    expect(claims!.amr).toEqual(['eudi_wallet', 'pop']);
    expect(claims!.acr).toBeUndefined();
    expect(claims!.sub).toBe(verifiedDocumentSubject(w.t.config.subjectSecret, 'D', 'C01X00T47'));
  });

  it('verified_claims by the claims parameter: the original document verification on its day, schema-valid, the plain claims restated', async () => {
    const DOCUMENT_REQUEST = {
      id_token: {
        verified_claims: {
          verification: {
            trust_framework: null,
            time: null,
            verification_process: null,
            evidence: [
              {
                type: { value: 'document' },
                check_details: [{ check_method: null, check_id: null, time: null }],
                document_details: { type: null, document_number: null, date_of_expiry: null, issuer: { country_code: null } },
              },
            ],
          },
          claims: { given_name: null, family_name: null, birthdate: null },
        },
      },
    };
    expectValidVerifiedClaimsRequest(DOCUMENT_REQUEST);
    const { browser, page, request } = await startWalletLogin(w, 'openid profile', { claims: JSON.stringify(DOCUMENT_REQUEST) });
    const link = walletLinks(page).crossDevice;
    const transaction = new URL(new URL(link).searchParams.get('request_uri')!).pathname.split('/').at(-1)!;
    expect((await (await holderOf()).answer(link)).status).toBe(200);
    const claims = (await redeem(w, await browser.submit(page, 'action', 'continue'), request)).claims()!;
    expectValidVerifiedClaims(claims);
    // The credential carries the day of the verification, not its transaction: the wallet transaction names the process.
    const time = `${day(0)}T00:00:00Z`;
    const check = (check_method: string, check: string) => ({ check_method, check_id: `${transaction}.original.${check}`, time });
    expect(claims.verified_claims).toEqual({
      verification: {
        trust_framework: 'urn:svc:trust-framework:test',
        time,
        verification_process: transaction,
        evidence: [
          {
            type: 'document',
            check_details: [check('vcrypt', 'passive-authentication'), check('bvr', 'face-match'), check('bvr', 'liveness')],
            document_details: { type: 'passport', document_number: 'C01X00T47', date_of_expiry: '2031-10-31', issuer: { country_code: 'DEU' } },
          },
        ],
      },
      claims: { given_name: claims.given_name, family_name: claims.family_name, birthdate: '1964-08-12' },
    });
    expect(claims.birthdate).toBe('12.08.1964');
  });

  it('ageverify18: the age statement and what openid releases, no birth date or name asked or given', async () => {
    const { answer, claims } = await login(await holderOf(), 'openid ageverify18');
    expect(answer.asked).toEqual([...ALWAYS, ['age_equal_or_over', '18']]);
    const got = personal(claims!);
    expect(got).toMatchObject({ age_over_18: true, issuing_country: 'D', document_number: 'C01X00T47', verified_at: day(0) });
    for (const name of ['birthdate', 'name', 'primary_identifier', 'given_name', 'nationality', 'gender']) expect(got).not.toHaveProperty(name);
  });

  it('ssn: a credential without a personal number still answers (the claim is optional), and none is given', async () => {
    const { answer, claims } = await login(await holderOf(), 'openid ssn');
    expect(answer.asked).toEqual(ALWAYS);
    expect(personal(claims!)).not.toHaveProperty('personal_number');
    const withNumber = await holderOf({ claims: { ...reusedIdentitySpecimen(day(0)), personal_number: '1234567890' } });
    expect(personal((await login(withNumber, 'openid ssn')).claims!)).toMatchObject({ personal_number: '1234567890' });
  });

  it("acr eIDAS high when asked, the verification reached high and it is recent enough for the merchant's setting", async () => {
    const high = { acr_values: 'urn:svc:acrp:level:high' };
    expect((await login(await holderOf(), 'openid', high)).claims!.acr).toBe('urn:svc:cert:eidas:high');
    const tenDaysOld = await holderOf({ claims: reusedIdentitySpecimen(day(10)) });
    expect((await login(tenDaysOld, 'openid', high)).claims!.acr).toBe('urn:svc:cert:eidas:high');
    const admin = adminClient(w.t.baseUrl, w.t.adminToken);
    const strict = await admin.createMerchant({
      name: 'Strict shop',
      redirect_uris: [REDIRECT_URI],
      eid_schemes: ['eu-wallet'],
      reused_identity_max_age_days: 5,
    });
    expect(strict.reused_identity_max_age_days).toBe(5);
    const strictMerchant = await discover(`${w.t.baseUrl}/oidc`, strict.client_id, strict.client_secret);
    const tooOld = await login(tenDaysOld, 'openid', high, strictMerchant);
    expect([tooOld.answer.status, tooOld.claims!.acr]).toEqual([200, undefined]);
    const substantial = await holderOf({ claims: { ...reusedIdentitySpecimen(day(0)), assurance: 'substantial' } });
    expect((await login(substantial, 'openid', high)).claims!.acr).toBeUndefined();
  });

  it('reused_identity_max_age_days: 30 unless set, 1 to 3650 days, never null (admin API)', async () => {
    const admin = adminClient(w.t.baseUrl, w.t.adminToken);
    const created = await admin.createMerchant({ name: 'Default shop', redirect_uris: [REDIRECT_URI] });
    expect(created.reused_identity_max_age_days).toBe(30);
    const path = `/admin/v1/merchants/${created.client_id}`;
    for (const bad of [0, 3651, 1.5, '30', null]) {
      const res = await admin.call('PATCH', path, { reused_identity_max_age_days: bad });
      expect([bad, res.status, Object.keys(res.body.fields ?? {})]).toEqual([bad, 400, ['reused_identity_max_age_days']]);
    }
    expect((await admin.call('PATCH', path, { reused_identity_max_age_days: 3650 })).body.reused_identity_max_age_days).toBe(3650);
    expect((await admin.call('GET', path)).body.reused_identity_max_age_days).toBe(3650);
  });

  const refusals: [string, () => Promise<ReusedIdentityHolder>, string, ((d: string[]) => string[])?][] = [
    ['a credential from an untrusted root', () => holderOf({ signer: stranger }), 'untrusted_issuer'],
    [
      'a credential of the right type from another issuer (iss)',
      () => holderOf({ signer: elsewhere, iss: 'https://elsewhere.example/vci' }),
      'unexpected_credential',
    ],
    [
      "a credential whose iss its certificate does not name (SD-JWT VC draft: the x5c leaf's SAN)",
      () => holderOf({ iss: 'https://elsewhere.example/vci' }),
      'issuer_mismatch',
    ],
    ['a revoked credential', () => holderOf({ idx: 1 }), 'revoked'],
    // Its exp is past (the issuer rounds exp down to a day; an hour ago is beyond any clock skew allowed).
    ['an expired credential (exp in the past)', () => holderOf({ expiresAt: new Date(Date.now() - 3_600_000) }), 'expired'],
    [
      'a changed disclosure (the key binding signed over it)',
      () => holderOf(),
      'invalid_signature',
      (ds) =>
        ds.map((d) => {
          const [salt, name] = JSON.parse(Buffer.from(d, 'base64url').toString('utf8')) as [string, string];
          return name === 'document_number' ? Buffer.from(JSON.stringify([salt, name, 'X00000000'])).toString('base64url') : d;
        }),
    ],
  ];
  for (const [what, holder, check, tamper] of refusals) {
    it(`refuses ${what}: 400 naming the check; the person is told, the merchant hears nothing`, async () => {
      const { browser, page } = await startWalletLogin(w, 'openid profile');
      const answer = await (await holder()).answer(walletLinks(page).crossDevice, { tamper });
      expect([answer.status, answer.body.check]).toEqual([400, check]);
      refusalShown(await browser.submit(page, 'action', 'continue'));
    });
  }
});
