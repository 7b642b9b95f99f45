import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { WalletTestAuthoritiesService } from '../../src/schemes/eu-wallet/trust/wallet-test-authorities.service.js';
import { adminClient } from '../support/admin-client.js';
import { authorizationRequest, discover } from '../support/oidc-flow.js';
import { runScript } from '../support/run-script.js';
import { TestBrowser } from '../support/test-browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { FACES, REDIRECT_URI } from '../support/verifier-flow.js';
import { redeem, startWalletLogin, walletLinks } from '../support/wallet/wallet-login.js';
import type { WalletWorld } from '../support/wallet/wallet-world.js';

const testApp = (args: string[]) => runScript('scripts/test-app/main.ts', args);
const testWallet = (args: string[]) => runScript('scripts/test-wallet/main.ts', args);
const unescape = (s: string) => s.replace(/&amp;/g, '&');
/** The claims whose values would tell who the person is (text of four characters or more, dates both ways). */
const PERSONAL = [
  'document_number',
  'primary_identifier',
  'secondary_identifier',
  'name',
  'given_name',
  'family_name',
  'display_name',
  'display_given_name',
  'display_family_name',
  'birthdate',
  'personal_number',
  'place_of_birth',
  'date_of_expiry',
];

function personalValues(claims: Record<string, unknown>): string[] {
  const values = PERSONAL.map((name) => claims[name]).filter((v): v is string => typeof v === 'string' && v.length >= 4);
  // The credential holds dates as ISO (YYYY-MM-DD), the merchant's claims as DD.MM.YYYY.
  const iso = values.flatMap((v) => (/^\d\d\.\d\d\.\d{4}$/.test(v) ? [v.split('.').reverse().join('-')] : []));
  return [...values, ...iso];
}

/**
 * The merchant-facing command lines end to end: the test app verifies a specimen document and prints the result
 * screen's offer; the test wallet receives a batch from it over OpenID4VCI, lists it, and signs in with it at a
 * merchant of the wallet scheme. What the wallet prints names claims, never their values (its help promises that).
 */
describe('credential issuer through the command lines', () => {
  let t: TestApp;
  let w: WalletWorld;
  let verifier: client.Configuration;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp();
    const admin = adminClient(t.baseUrl, t.adminToken);
    const v = await admin.createMerchant({ name: 'Document CLI', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    verifier = await discover(`${t.baseUrl}/oidc`, v.client_id, v.client_secret);
    const m = await admin.createMerchant({ name: 'Wallet CLI', redirect_uris: [REDIRECT_URI], eid_schemes: ['eu-wallet'] });
    w = { t, merchant: await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret) } as WalletWorld;
    dir = mkdtempSync(join(tmpdir(), 'vci-cli-'));
  }, 60_000);
  afterAll(() => t?.close(), 180_000);

  it('test-app --offer, test-wallet receive --batch 2, list, and a sign-in at the wallet merchant with the stored credential', async () => {
    const documentDir = join(dir, 'document');
    const specimen = await testApp([
      'specimen',
      '--api',
      `${t.baseUrl}/app/v1`,
      '--face',
      join(FACES, 'sheldon-document.jpg'),
      '--person',
      'nor-adult',
      '--out',
      documentDir,
    ]);
    expect([specimen.code, specimen.stderr]).toEqual([0, '']);

    const browser = new TestBrowser(t.baseUrl);
    const waiting = await browser.follow(await browser.get((await authorizationRequest(verifier, { scope: 'openid profile' })).url.toString()));
    const session = unescape(/<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(waiting.html)![1]);
    const verify = await testApp([
      '--session',
      session,
      '--document',
      documentDir,
      '--selfie',
      join(FACES, 'sheldon-center.png'),
      '--left',
      join(FACES, 'sheldon-left.png'),
      '--right',
      join(FACES, 'sheldon-right.png'),
      '--offer',
    ]);
    expect([verify.code, verify.stderr]).toEqual([0, '']);
    const outcome = JSON.parse(verify.stdout) as {
      authentication_result: string;
      credential_offer: { credential_offer: string; tx_code: string; revocation_url: string };
    };
    expect(outcome.authentication_result).toBe('pass');
    expect(outcome.credential_offer).toMatchObject({
      credential_offer: expect.stringMatching(/^openid-credential-offer:\/\/\?credential_offer_uri=/),
      tx_code: expect.stringMatching(/^\d{6}$/),
    });

    const store = join(dir, 'credentials.json');
    const received = await testWallet([
      'receive',
      outcome.credential_offer.credential_offer,
      '--tx-code',
      outcome.credential_offer.tx_code,
      '--batch',
      '2',
      '--store',
      store,
    ]);
    expect([received.code, received.stderr]).toEqual([0, '']);
    expect(received.stdout).toContain(`Received 2 credentials (dc+sd-jwt) from ${t.baseUrl}/vci`);
    expect(received.stdout).toContain(`vct ${t.baseUrl}/vct/verified-document-identity`);
    const names = /disclosable claims: (.*)/.exec(received.stdout)![1].split(', ');
    expect(names).toEqual(expect.arrayContaining(['document_number', 'birthdate', 'name', 'age_equal_or_over.18', 'verified_at']));
    expect(statSync(store).mode & 0o777).toBe(0o600);
    // The offer is spent: a second wallet with the same link and code gets nothing.
    const again = await testWallet([
      'receive',
      outcome.credential_offer.credential_offer,
      '--tx-code',
      outcome.credential_offer.tx_code,
      '--store',
      join(dir, 'other.json'),
    ]);
    expect(again.code).toBe(1);

    const listed = await testWallet(['list', '--store', store]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${store}: 2 credentials`);
    expect(listed.stdout.match(/used 0×/g)).toHaveLength(2);

    const root = join(dir, 'request-signer-root.der');
    writeFileSync(root, (await t.app.get(WalletTestAuthoritiesService).get()).requestSigner.root);
    const { browser: shopBrowser, page, request } = await startWalletLogin(w, 'openid profile');
    const present = await testWallet([walletLinks(page).crossDevice, '--store', store, '--request-signer-root', root, '--yes']);
    expect([present.code, present.stderr]).toEqual([0, '']);
    expect(present.stdout).toContain('this wallet answers with reused_identity');
    expect(present.stdout).toContain(`(a received credential of ${t.baseUrl}/vct/verified-document-identity, used 0× before)`);
    expect(present.stdout).toContain('The waiting page continues by itself.');
    const claims = (await redeem(w, await shopBrowser.submit(page, 'action', 'continue'), request)).claims()! as Record<string, unknown>;
    expect(claims).toMatchObject({
      document_type: 'PASSPORT',
      issuing_country: 'NOR',
      authentication_sources: ['REUSED_CREDENTIAL'],
      authentication_result: 'pass',
    });
    expect(claims.primary_identifier).toEqual(expect.any(String));
    expect((await testWallet(['list', '--store', store])).stdout.match(/used 1×/g)).toHaveLength(1);

    // What the wallet printed names claims; none of the person's values is in it.
    const values = personalValues(claims);
    expect(values.length).toBeGreaterThanOrEqual(5);
    for (const output of [received.stdout, listed.stdout, present.stdout])
      for (const value of values) expect([value, output.includes(value)]).toEqual([value, false]);
  }, 300_000);
});
