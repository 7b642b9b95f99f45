import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { CredentialIssuancesService } from '../../src/credential-issuer/issuances/credential-issuances.service.js';
import { CredentialOffersService } from '../../src/credential-issuer/offer/credential-offers.service.js';
import { VerificationRecordsService } from '../../src/schemes/document-verifier/records/verification-records.service.js';
import { adminClient } from '../support/admin-client.js';
import { passedRecord } from '../support/credential-issuer.js';
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
const noDpopProof = async () => undefined;

/**
 * docs/credential-issuer.md, "Trying it", step by step as a merchant runs it: a merchant that offers the credential at
 * the end of its sign-ins (`offer_credential: true`), the broker page open in the browser. The test app verifies and
 * prints the app's offer; the broker page then shows its own, and the test wallet receives the app's: one
 * verification has one offer, so neither withdraws the other. Then the test wallet signs in at a wallet merchant with
 * --store alone and presents the received credential, not its test PID (docs/eu-wallet.md).
 */
describe('the credential offer recipe of docs/credential-issuer.md, as written', () => {
  let t: TestApp;
  let bank: client.Configuration;
  let w: WalletWorld;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp();
    const admin = adminClient(t.baseUrl, t.adminToken);
    const b = await admin.createMerchant({ name: 'Bank', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'], offer_credential: true });
    bank = await discover(`${t.baseUrl}/oidc`, b.client_id, b.client_secret);
    const s = await admin.createMerchant({ name: 'Shop', redirect_uris: [REDIRECT_URI], eid_schemes: ['eu-wallet'] });
    w = { t, merchant: await discover(`${t.baseUrl}/oidc`, s.client_id, s.client_secret) } as WalletWorld;
    dir = mkdtempSync(join(tmpdir(), 'offer-recipe-'));
  }, 60_000);
  afterAll(() => t?.close(), 180_000);

  it('test-app --offer, the broker page shows the same offer, test-wallet receive takes it, and presents it with --store', async () => {
    const documentDir = join(dir, 'specimen-doc');
    const specimen = await testApp(['specimen', '--api', `${t.baseUrl}/app/v1`, '--face', join(FACES, 'sheldon-document.jpg'), '--out', documentDir]);
    expect([specimen.code, specimen.stderr]).toEqual([0, '']);

    const request = await authorizationRequest(bank, { scope: 'openid profile' });
    const browser = new TestBrowser(t.baseUrl);
    const waiting = await browser.follow(await browser.get(request.url.toString()));
    const session = unescape(/<a href="([^"]+)" data-action="open-app"[^>]*>/.exec(waiting.html)![1]);
    const faces = ['--selfie', 'sheldon-center.png', '--left', 'sheldon-left.png', '--right', 'sheldon-right.png'].map((a) =>
      a.endsWith('.png') ? join(FACES, a) : a,
    );
    const verify = await testApp(['--session', session, '--document', documentDir, ...faces, '--offer']);
    expect([verify.code, verify.stderr]).toEqual([0, '']);
    const { credential_offer: appOffer } = JSON.parse(verify.stdout) as { credential_offer: { credential_offer: string; tx_code: string } };

    // The broker page continues (as its script does half a second after the pass) and shows the offer: the app's.
    const offerPage = await browser.submit(waiting, 'action', 'continue');
    expect(offerPage.status).toBe(200);
    expect(unescape(/<a href="([^"]+)" data-action="add-to-wallet"/.exec(offerPage.html)![1])).toBe(appOffer.credential_offer);
    expect(/data-tx-code="(\d{6})"/.exec(offerPage.html)![1]).toBe(appOffer.tx_code);

    const store = join(dir, 'wallet.json');
    const received = await testWallet(['receive', appOffer.credential_offer, '--tx-code', appOffer.tx_code, '--batch', '3', '--store', store]);
    expect([received.code, received.stderr]).toEqual([0, '']);
    expect(received.stdout).toContain(`Received 3 credentials (dc+sd-jwt) from ${t.baseUrl}/vci`);
    const done = await browser.submit(offerPage, 'action', 'continue');
    expect(new URL(done.location!).searchParams.get('code')).toBeTruthy();

    // docs/eu-wallet.md: with --store alone (the wallet also holds the service's test PID), the stored credential answers.
    const { browser: shopBrowser, page, request: shopRequest } = await startWalletLogin(w, 'openid profile');
    const present = await testWallet([walletLinks(page).crossDevice, '--store', store, '--yes']);
    expect([present.code, present.stderr]).toEqual([0, '']);
    expect(present.stdout).toMatch(/It accepts: .*reused_identity.*; this wallet answers with reused_identity:/);
    const claims = (await redeem(w, await shopBrowser.submit(page, 'action', 'continue'), shopRequest)).claims()!;
    expect(claims.authentication_sources).toEqual(['REUSED_CREDENTIAL']);
  }, 300_000);

  it('one verification, one offer: shown again while live, a new one once redeemed; single use kept', async () => {
    const recordId = randomUUID();
    const record = passedRecord();
    await t.app.get(VerificationRecordsService).store(recordId, record);
    const offers = t.app.get(CredentialOffersService);
    const first = (await offers.offerFor(recordId, record.clientId))!;
    const again = (await offers.offerFor(recordId, record.clientId))!;
    expect(again).toEqual(first);
    const issuances = t.app.get(CredentialIssuancesService);
    const shown = (await issuances.offer(recordId, record.clientId))!;
    await issuances.redeem(shown.preAuthorizedCode, shown.txCode, 'the-wallet-jkt', noDpopProof);
    await expect(issuances.redeem(shown.preAuthorizedCode, shown.txCode, 'the-wallet-jkt', noDpopProof)).rejects.toMatchObject({
      code: 'invalid_grant',
    });
    const next = (await offers.offerFor(recordId, record.clientId))!;
    expect(next.link).not.toBe(first.link);
    expect(next.revokeUrl).not.toBe(first.revokeUrl);
    expect(next.expiresAt.getTime()).toBeGreaterThanOrEqual(first.expiresAt.getTime());
    const rows = (await t.dataSource.query('SELECT state FROM credential_issuances WHERE record_id = $1 ORDER BY created_at', [recordId])) as {
      state: string;
    }[];
    expect(rows.map((r) => r.state)).toEqual(['redeemed', 'offered']);
  });

  it('callers at once (the app and the page) get the same offer, and the verification keeps one live offer', async () => {
    // Several rounds of three: the race (one caller committing its offer between another's read and its write) is
    // rare in one round; a later writer used to burn the offer the first had just handed out.
    for (let round = 0; round < 8; round++) {
      const recordId = randomUUID();
      const record = passedRecord();
      await t.app.get(VerificationRecordsService).store(recordId, record);
      const offers = t.app.get(CredentialOffersService);
      const [a, b, c] = await Promise.all([1, 2, 3].map(() => offers.offerFor(recordId, record.clientId)));
      expect([b, c]).toEqual([a, a]);
      const live = (await t.dataSource.query(`SELECT count(*)::int AS n FROM credential_issuances WHERE record_id = $1 AND state = 'offered'`, [recordId])) as {
        n: number;
      }[];
      expect(live[0].n).toBe(1);
    }
  });
});
