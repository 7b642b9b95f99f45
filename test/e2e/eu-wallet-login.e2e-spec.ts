import { redeem as redeemAt, startWalletLogin, walletLinks } from '../support/wallet/wallet-login.js';
import type { Page } from '../support/test-browser.js';
import type { PkceRequest } from '../support/oidc-flow.js';
import { walletWorld, type WalletWorld } from '../support/wallet/wallet-world.js';

describe('EU wallet scheme: a merchant logs in with openid-client through the wallet', () => {
  let w: WalletWorld;

  beforeAll(async () => {
    w = await walletWorld();
  }, 120_000);
  afterAll(() => w?.close());

  const startLogin = (scope: string) => startWalletLogin(w, scope);
  const redeem = (done: Page, request: PkceRequest) => redeemAt(w, done, request);

  it('same device, PID as SD-JWT VC: the wallet sends the browser back with a response_code; the merchant gets its profile claims', async () => {
    const { browser, page, request } = await startLogin('openid profile');
    expect(page.html).toContain('Open wallet');
    const answer = await w.wallet.answer(walletLinks(page).sameDevice, { use: 'pid_sd_jwt' });
    expect(answer.status).toBe(200);
    // Only what profile needs was asked: no age statement, no address.
    const asked = (answer.request.claims.dcql_query.credentials as { id: string; claims: { path: unknown[] }[] }[]).find((c) => c.id === 'pid_sd_jwt')!;
    expect(asked.claims.map((c) => c.path)).toEqual([['issuing_country'], ['family_name'], ['given_name'], ['birthdate'], ['nationalities', null]]);
    const redirect = answer.body.redirect_uri as string;
    expect(redirect).toMatch(/\/its\/eid\/callback\?state=.+&response_code=/);
    const tokens = await redeem(await browser.follow(await browser.get(redirect)), request);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ given_name: 'Erika', family_name: 'Mustermann', birthdate: '26.01.1984', nationality: 'D', amr: ['eudi_wallet', 'pop'] });
    expect(claims).not.toHaveProperty('address');
  });

  it('another device, PID as mdoc: an ageverify18 merchant gets age_over_18 and no name or birth date', async () => {
    const { browser, page, request } = await startLogin('openid ageverify18');
    const answer = await w.wallet.answer(walletLinks(page).crossDevice, { use: 'pid_mdoc' });
    expect([answer.status, answer.body]).toEqual([200, {}]);
    const asked = (answer.request.claims.dcql_query.credentials as { id: string; claims: { path: string[] }[] }[]).find((c) => c.id === 'pid_mdoc')!;
    expect(asked.claims.map((c) => c.path[1])).toEqual(['issuing_country', 'age_over_18']);
    // The page's script presses Continue when the status route says done.
    const status = await (await fetch(`${w.t.baseUrl}${/data-status-url="([^"]+)"/.exec(page.html)![1]}`)).json();
    expect(status).toMatchObject({ step: 'done', done: true });
    const tokens = await redeem(await browser.submit(page, 'action', 'continue'), request);
    const claims = tokens.claims()!;
    expect(claims.age_over_18).toBe(true);
    for (const name of ['given_name', 'family_name', 'birthdate', 'nationality']) expect(claims).not.toHaveProperty(name);
  });

  it('another device, the mobile driving licence: the subject is the licence, stable across logins', async () => {
    const subs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { browser, page, request } = await startLogin('openid profile');
      expect((await w.wallet.answer(walletLinks(page).crossDevice, { use: 'mdl' })).body).toEqual({});
      const tokens = await redeem(await browser.submit(page, 'action', 'continue'), request);
      expect(tokens.claims()).toMatchObject({ given_name: 'Anna', family_name: 'Svensson', birthdate: '03.02.1990', issuing_country: 'UTO', document_number: 'UT1234567' });
      subs.push(tokens.claims()!.sub);
    }
    expect(subs[0]).toBe(subs[1]);
  });
});
