import { walletEncrypts } from '../support/wallet/jose-wallet.js';
import type { Page } from '../support/test-browser.js';
import { merchantError, redeem, startWalletLogin, walletLinks } from '../support/wallet/wallet-login.js';
import { walletWorld, type WalletWorld } from '../support/wallet/wallet-world.js';

/**
 * What a stranger can do with a wallet link: a phished same-device link logs nobody in whatever the phisher fetches,
 * and no answer posted by whoever saw a QR code ends the person's sign-in or stops their own wallet from answering.
 */
describe('EU wallet scheme: strangers with a link', () => {
  let w: WalletWorld;

  beforeAll(async () => {
    w = await walletWorld();
  }, 120_000);
  afterAll(() => w?.close());

  const requestUriOf = (link: string) => new URL(link).searchParams.get('request_uri')!;
  /** The response_uri of a link's transaction, known without fetching anything (it is the request_uri's id). */
  const responseUriOf = (link: string) => requestUriOf(link).replace('/wallet/v1/requests/', '/wallet/v1/responses/').replace(/\?.*$/, '');
  const statusOf = async (page: Page) =>
    (await fetch(`${w.t.baseUrl}${/data-status-url="([^"]+)"/.exec(page.html)![1]}`)).json() as Promise<Record<string, unknown>>;
  const postForm = async (url: string, form: Record<string, string>) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("a phished same-device link: the phisher's second fetch as cross_device changes nothing, and only the victim's browser could take the answer", async () => {
    const attacker = await startWalletLogin(w, 'openid profile');
    const phished = walletLinks(attacker.page).sameDevice;
    // The victim's wallet opens the link and reads the request.
    const victimRequest = await w.wallet.read(phished);
    // The attacker fetches the same request_uri again, asking for the cross-device flow.
    const refetch = new URL(requestUriOf(phished));
    refetch.searchParams.set('flow', 'cross_device');
    await fetch(refetch, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'wallet_nonce=attacker-nonce-0123456789' });
    // The victim's wallet answers the request it read.
    const answer = await w.wallet.post(victimRequest, {
      response: await walletEncrypts(victimRequest, { vp_token: await w.wallet.presentations(victimRequest, 'pid_sd_jwt'), state: victimRequest.claims.state }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.redirect_uri).toEqual(expect.stringContaining('response_code='));
    // The attacker's page is not told to continue, and pressing Continue gets no code.
    expect(await statusOf(attacker.page)).toMatchObject({ done: false });
    const pressed = await attacker.browser.submit(attacker.page, 'action', 'continue');
    expect(pressed.location ?? '').not.toContain('code=');
    expect(await statusOf(attacker.page)).toMatchObject({ done: false });
  });

  it('the QR code and the button are two transactions: reading or answering one never touches the other', async () => {
    const { browser, page, request } = await startWalletLogin(w, 'openid profile');
    const links = walletLinks(page);
    expect(requestUriOf(links.sameDevice)).not.toBe(requestUriOf(links.crossDevice));
    const sameRequest = await w.wallet.read(links.sameDevice);
    const crossRequest = await w.wallet.read(links.crossDevice);
    expect([sameRequest.claims.response_uri, sameRequest.claims.state, sameRequest.claims.nonce]).not.toEqual([
      crossRequest.claims.response_uri,
      crossRequest.claims.state,
      crossRequest.claims.nonce,
    ]);
    // An answer to the same-device request, moved to the cross-device response_uri, does not open there.
    const moved = await w.wallet.post(crossRequest, {
      response: await walletEncrypts(sameRequest, { vp_token: await w.wallet.presentations(sameRequest, 'pid_sd_jwt'), state: sameRequest.claims.state }),
    });
    expect([moved.status, moved.body.check]).toEqual([400, 'wrong_binding']);
    // The cross-device answer has no redirect (the page takes it), and the sign-in completes.
    const answer = await w.wallet.answer(links.crossDevice, { use: 'pid_sd_jwt' });
    expect([answer.status, answer.body.redirect_uri]).toEqual([200, undefined]);
    expect((await redeem(w, await browser.submit(page, 'action', 'continue'), request)).claims()?.given_name).toBe('Erika');
  });

  /** After a stranger's post: nothing sent to the merchant, the real wallet's answer is taken, the sign-in completes. */
  async function realWalletStillWins(login: Awaited<ReturnType<typeof startWalletLogin>>) {
    const shown = await login.browser.submit(login.page, 'action', 'continue');
    expect(shown.location ?? '').not.toMatch(/error=|code=/);
    const answer = await w.wallet.answer(walletLinks(login.page).crossDevice, { use: 'pid_sd_jwt' });
    expect([answer.status, answer.body.check]).toEqual([200, undefined]);
    return redeem(w, await login.browser.submit(login.page, 'action', 'continue'), login.request);
  }

  it("error=access_denied with the state read from the request object: noted for the person's page, and the real wallet still answers", async () => {
    const login = await startWalletLogin(w, 'openid profile');
    const request = await w.wallet.read(walletLinks(login.page).crossDevice);
    expect((await postForm(request.claims.response_uri as string, { error: 'access_denied', state: request.claims.state as string })).status).toBe(200);
    expect(await statusOf(login.page)).toMatchObject({ done: false, notice: '1' });
    // The page shows what happened and offers a fresh request beside Cancel.
    const shown = await login.browser.follow(await login.browser.get(login.page.url));
    expect(shown.html).toContain('role="alert"');
    expect(shown.html).toContain('data-notice="1"');
    expect(shown.html).toContain('data-action="retry"');
    expect(shown.html).toContain('data-action="cancel"');
    expect((await realWalletStillWins(login)).claims()?.given_name).toBe('Erika');
  });

  it('an encrypted presentation that fails its checks: refused (400), noted, and the real wallet still answers', async () => {
    const login = await startWalletLogin(w, 'openid profile');
    const refused = await w.wallet.answer(walletLinks(login.page).crossDevice, { use: 'pid_sd_jwt', bindTo: { nonce: 'another-request-nonce-0123456789' } });
    expect([refused.status, refused.body.check]).toEqual([400, 'wrong_binding']);
    expect(await statusOf(login.page)).toMatchObject({ done: false, notice: '1' });
    expect((await realWalletStillWins(login)).claims()?.given_name).toBe('Erika');
  });

  it('error=access_denied without any state, no fetch needed: refused, nothing changes, and the real wallet still answers', async () => {
    const login = await startWalletLogin(w, 'openid profile');
    const before = await statusOf(login.page);
    for (const link of [walletLinks(login.page).crossDevice, walletLinks(login.page).sameDevice]) {
      const answer = await postForm(responseUriOf(link), { error: 'access_denied' });
      expect([answer.status, answer.body.check]).toEqual([400, 'wrong_binding']);
    }
    expect(await statusOf(login.page)).toEqual(before);
    expect((await realWalletStillWins(login)).claims()?.given_name).toBe('Erika');
  });

  it("Try again: a fresh pair of links, the old ones answer nothing, and the person's Cancel alone sends access_denied", async () => {
    const login = await startWalletLogin(w, 'openid profile');
    const old = walletLinks(login.page);
    await w.wallet.answer(old.crossDevice, { use: 'pid_sd_jwt', bindTo: { nonce: 'another-request-nonce-0123456789' } });
    const shown = await login.browser.follow(await login.browser.get(login.page.url));
    const fresh = await login.browser.submit(shown, 'action', 'retry');
    const links = walletLinks(fresh);
    expect([links.crossDevice, links.sameDevice]).not.toContain(old.crossDevice);
    expect(fresh.html).not.toContain('role="alert"');
    expect((await fetch(requestUriOf(old.crossDevice))).status).toBeGreaterThanOrEqual(400);
    expect((await fetch(requestUriOf(old.sameDevice))).status).toBeGreaterThanOrEqual(400);
    expect(merchantError(await login.browser.submit(fresh, 'action', 'cancel'))).toBe('access_denied');
  });

  it('Try again is bounded per sign-in (20 tries): past it the page stays as it is, and no row is added', async () => {
    const login = await startWalletLogin(w, 'openid profile');
    const { uid } = /data-status-url="\/its\/interaction\/(?<uid>[^/]+)\//.exec(login.page.html)!.groups!;
    const rows = async () => Number((await w.t.dataSource.query('SELECT count(*) AS n FROM wallet_transactions WHERE interaction_uid = $1', [uid]))[0].n);
    await w.wallet.answer(walletLinks(login.page).crossDevice, { use: 'pid_sd_jwt', bindTo: { nonce: 'another-request-nonce-0123456789' } });
    let page = await login.browser.follow(await login.browser.get(login.page.url));
    for (let i = 1; i < 20; i++) page = await login.browser.submit(page, 'action', 'continue', { action: 'retry' });
    expect(await rows()).toBe(40);
    const last = walletLinks(page);
    const after = await login.browser.submit(page, 'action', 'continue', { action: 'retry' });
    expect([await rows(), walletLinks(after).crossDevice]).toEqual([40, last.crossDevice]);
  });
});
