import type { AddressInfo } from 'node:net';
import { adminClient } from '../support/admin-client.js';
import { runScript } from '../support/run-script.js';
import { discover, REDIRECT_URI } from '../support/oidc-flow.js';
import { productionTestEnv, startTestApp, type TestApp } from '../support/test-app.js';
import { redeem, refusalShown, startWalletLogin, walletLinks } from '../support/wallet/wallet-login.js';
import { walletConfig } from '../../src/schemes/eu-wallet/config/wallet-config.js';
import type { WalletWorld } from '../support/wallet/wallet-world.js';

const testWallet = (args: string[]) => runScript('scripts/test-wallet/main.ts', args);

/** The merchant-facing test wallet (npm run test-wallet), with credentials from the service's own test issuer. */
describe('the test wallet command line', () => {
  let t: TestApp;
  let w: WalletWorld;

  beforeAll(async () => {
    t = await startTestApp();
    const m = await adminClient(t.baseUrl, t.adminToken).createMerchant({
      name: 'Wallet CLI',
      redirect_uris: [REDIRECT_URI],
      eid_schemes: ['eu-wallet'],
      scope: 'openid profile ageverify18',
    });
    // What wallet-login needs of a world: the service and a merchant.
    w = { t, merchant: await discover(`${t.baseUrl}/oidc`, m.client_id, m.client_secret) } as WalletWorld;
  });
  afterAll(() => t?.close());

  it('shows who asks for what, answers with the PID as SD-JWT VC, and prints where the browser goes next', async () => {
    const { browser, page, request } = await startWalletLogin(w, 'openid profile');
    const run = await testWallet([walletLinks(page).sameDevice, '--use', 'pid_sd_jwt', '--yes']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Request from C=UT, O=Test, CN=Customer-test verifier 127.0.0.1');
    expect(run.stdout).toMatch(
      /this wallet answers with pid_sd_jwt:\n {2}- issuing_country\n {2}- family_name\n {2}- given_name\n {2}- birthdate\n {2}- nationalities \/ \*/,
    );
    const redirect = /Open this in the browser that started the sign-in:\n {2}(\S+)/.exec(run.stdout)![1];
    const tokens = await redeem(w, await browser.follow(await browser.get(redirect)), request);
    // The test PID's specimen state UT reads as ICAO's specimen code UTO; its status was checked on the service's test list.
    expect(tokens.claims()).toMatchObject({ given_name: 'Erika', family_name: 'Mustermann', birthdate: '26.01.1984', issuing_country: 'UTO' });
  });

  it('answers with the mDL and the PID as mdoc from the QR code; --decline is shown to the person, and ends nothing', async () => {
    for (const use of ['mdl', 'pid_mdoc']) {
      const { browser, page, request } = await startWalletLogin(w, 'openid ageverify18');
      const run = await testWallet([walletLinks(page).crossDevice, '--use', use, '--yes']);
      expect([run.code, run.stdout]).toEqual([0, expect.stringContaining('The waiting page continues by itself.')]);
      expect((await redeem(w, await browser.submit(page, 'action', 'continue'), request)).claims()?.age_over_18).toBe(true);
    }
    const { browser, page } = await startWalletLogin(w, 'openid profile');
    expect((await testWallet([walletLinks(page).crossDevice, '--decline'])).stdout).toContain('Declined: the service answered 200.');
    expect(refusalShown(await browser.submit(page, 'action', 'continue'))).toMatch(/would not share/);
  });

  it('the test issuer refuses a key that is not a P-256 point, and production has none', async () => {
    const issue = (base: string, holder_key: unknown) =>
      fetch(`${base}/wallet/v1/test-credentials`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'mdl', holder_key }),
      });
    const offCurve = { kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'A'.repeat(43) };
    expect((await issue(t.baseUrl, offCurve)).status).toBe(400);
    expect((await issue(t.baseUrl, { kty: 'RSA', n: 'x', e: 'AQAB' })).status).toBe(400);
    const production = await startTestApp({ env: productionTestEnv() });
    // Production's BASE_URL is its public https name; the test reaches its port directly.
    const local = `http://127.0.0.1:${(production.app.getHttpServer().address() as AddressInfo).port}`;
    try {
      // Production without WALLET_* offers no wallet at all: no test issuer, no status list, not on the choice page.
      expect(walletConfig(production.config).offered).toBe(false);
      expect(
        (await issue(local, { kty: 'EC', crv: 'P-256', x: 'DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0', y: 'XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc' }))
          .status,
      ).toBe(404);
      expect((await fetch(`${local}/wallet/v1/test-status-lists/1`)).status).toBe(404);
    } finally {
      await production.close();
    }
  });
});
