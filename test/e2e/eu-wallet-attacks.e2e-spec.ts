import { generateKeyPairSync } from 'node:crypto';
import { issueSdJwtVc, SPECIMEN_PID_CLAIMS } from '../../libs/eu-wallet/src/index.js';
import { createTestSigner } from '../../libs/eu-wallet/src/specimen/test-pki.js';
import { mulberry32 } from '../support/seeded-random.js';
import { TestBrowser } from '../support/test-browser.js';
import { walletEncrypts } from '../eu-wallet/support/jose-wallet.js';
import { redeem, startWalletLogin, walletLinks } from '../support/wallet/wallet-login.js';
import { TestWallet } from '../../scripts/test-wallet/wallet.js';
import { walletWorld, type WalletWorld } from '../support/wallet/wallet-world.js';

/**
 * The attacks on the wallet scheme, each its own test, through the service's endpoints: every one is refused with
 * a 400 naming the check; a refused presentation is shown to the person and ends nothing (eu-wallet-strangers).
 */
describe('EU wallet scheme: attacks', () => {
  let w: WalletWorld;

  beforeAll(async () => {
    w = await walletWorld();
  }, 120_000);
  afterAll(() => w?.close());

  const refusedWith = (answer: { status: number; body: Record<string, unknown> }) => [answer.status, answer.body.check];

  /** A PID SD-JWT VC of our own making, for a wallet that holds only it. */
  async function walletWithPid(options: { signer?: Parameters<typeof issueSdJwtVc>[0]['signer']; expiresAt?: Date; issuedAt?: Date; status?: { uri: string; idx: number } } = {}) {
    const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credential = await issueSdJwtVc({ signer: options.signer ?? w.authorities.pidProvider, holderKey: holder.publicKey, claims: { ...SPECIMEN_PID_CLAIMS, issuing_country: 'AT' }, ...options });
    return new TestWallet(w.authorities.requestSigner.root, [{ kind: 'pid_sd_jwt', credential, holderKey: holder.privateKey }]);
  }

  it('a response posted twice: the second is refused as replayed, the first login goes through', async () => {
    const { browser, page, request } = await startWalletLogin(w, 'openid profile');
    const first = await w.wallet.answer(walletLinks(page).crossDevice, { use: 'pid_sd_jwt' });
    expect(first.status).toBe(200);
    const again = await w.wallet.post(first.request, { response: await walletEncrypts(first.request, { vp_token: await w.wallet.presentations(first.request, 'pid_sd_jwt'), state: first.request.claims.state }) });
    expect(refusedWith(again)).toEqual([400, 'replayed']);
    expect((await redeem(w, await browser.submit(page, 'action', 'continue'), request)).claims()?.given_name).toBe('Erika');
  });

  it('an unencrypted vp_token where direct_post.jwt was asked: refused, and the transaction stays for the real answer', async () => {
    const { page } = await startWalletLogin(w, 'openid profile');
    const link = walletLinks(page).crossDevice;
    const plain = await w.wallet.answer(link, { use: 'pid_sd_jwt', form: (_jwe, request) => ({ vp_token: JSON.stringify({ pid_sd_jwt: ['x'] }), state: request.claims.state }) });
    expect(refusedWith(plain)).toEqual([400, 'malformed']);
    expect((await w.wallet.answer(link, { use: 'pid_sd_jwt' })).status).toBe(200);
  });

  it("a response for another interaction: encrypted to the other request's key, it is not opened here", async () => {
    const one = await startWalletLogin(w, 'openid profile');
    const two = await startWalletLogin(w, 'openid profile');
    const requestOne = await w.wallet.read(walletLinks(one.page).crossDevice);
    const requestTwo = await w.wallet.read(walletLinks(two.page).crossDevice);
    const jwe = await walletEncrypts(requestOne, { vp_token: await w.wallet.presentations(requestOne, 'pid_sd_jwt'), state: requestOne.claims.state });
    expect(refusedWith(await w.wallet.post(requestTwo, { response: jwe }))).toEqual([400, 'wrong_binding']);
  });

  it("a presentation bound to another request's nonce (SD-JWT VC key binding) is refused; the sign-in goes on waiting", async () => {
    const { browser, page } = await startWalletLogin(w, 'openid profile');
    const answer = await w.wallet.answer(walletLinks(page).crossDevice, { use: 'pid_sd_jwt', bindTo: { nonce: 'another-request-nonce-0123456789' } });
    expect(refusedWith(answer)).toEqual([400, 'wrong_binding']);
    const shown = await browser.submit(page, 'action', 'continue');
    expect([shown.location, shown.html.includes('data-action="retry"')]).toEqual([undefined, true]);
  });

  it('an mdoc whose DeviceAuth is over another transcript (another client_id) is refused', async () => {
    const { page } = await startWalletLogin(w, 'openid profile');
    const answer = await w.wallet.answer(walletLinks(page).crossDevice, { use: 'pid_mdoc', bindTo: { clientId: 'x509_hash:another-verifier' } });
    expect(refusedWith(answer)).toEqual([400, 'wrong_binding']);
  });

  it('a key-binding JWT for an audience without the client identifier prefix is refused', async () => {
    const { page } = await startWalletLogin(w, 'openid profile');
    const request = await w.wallet.read(walletLinks(page).crossDevice);
    const bare = (request.claims.client_id as string).replace(/^x509_hash:/, '');
    const answer = await w.wallet.post(request, { response: await walletEncrypts(request, { vp_token: await w.wallet.presentations(request, 'pid_sd_jwt', { clientId: bare }), state: request.claims.state }) });
    expect(refusedWith(answer)).toEqual([400, 'wrong_binding']);
  });

  it('a revoked and a suspended credential (Token Status List) are refused', async () => {
    for (const idx of [1, 2]) {
      const wallet = await walletWithPid({ status: { uri: w.statusUri, idx } });
      const { page } = await startWalletLogin(w, 'openid profile');
      expect(refusedWith(await wallet.answer(walletLinks(page).crossDevice, { use: 'pid_sd_jwt' }))).toEqual([400, 'revoked']);
    }
  });

  it('a status list on a private address is not fetched: the credential is refused (fail closed)', async () => {
    const wallet = await walletWithPid({ status: { uri: 'http://10.0.0.1/status/1', idx: 0 } });
    const { page } = await startWalletLogin(w, 'openid profile');
    expect(refusedWith(await wallet.answer(walletLinks(page).crossDevice, { use: 'pid_sd_jwt' }))).toEqual([400, 'revoked']);
  });

  it('a PID from a provider nobody trusts, and an expired PID, are refused', async () => {
    const stranger = await createTestSigner({ rootName: 'Unknown PID Provider CA', signerName: 'Unknown PID Provider' });
    const cases: [TestWallet, string][] = [
      [await walletWithPid({ signer: stranger }), 'untrusted_issuer'],
      [await walletWithPid({ issuedAt: new Date(Date.now() - 3 * 86_400_000), expiresAt: new Date(Date.now() - 86_400_000) }), 'expired'],
    ];
    for (const [wallet, check] of cases) {
      const { page } = await startWalletLogin(w, 'openid profile');
      expect(refusedWith(await wallet.answer(walletLinks(page).crossDevice, { use: 'pid_sd_jwt' }))).toEqual([400, check]);
    }
  });

  it('a response_code works once, and only in the browser that started the sign-in', async () => {
    const { browser, page, request } = await startWalletLogin(w, 'openid profile');
    const answer = await w.wallet.answer(walletLinks(page).sameDevice, { use: 'pid_sd_jwt' });
    const redirect = answer.body.redirect_uri as string;
    // Another browser (the attacker's, or a phishing victim's) gets nothing with it.
    const stranger = await new TestBrowser(w.t.baseUrl).follow(await new TestBrowser(w.t.baseUrl).get(redirect));
    expect(stranger.location ?? '').not.toContain('code=');
    // The sign-in's own browser: once.
    expect((await redeem(w, await browser.follow(await browser.get(redirect)), request)).claims()?.given_name).toBe('Erika');
    const twice = await browser.follow(await browser.get(redirect));
    expect(twice.location ?? '').not.toContain('code=');
  });

  it('a same-device answer is not taken by the waiting page (a wallet link sent to a victim logs nobody in)', async () => {
    const { browser, page } = await startWalletLogin(w, 'openid profile');
    expect((await w.wallet.answer(walletLinks(page).sameDevice, { use: 'pid_sd_jwt' })).status).toBe(200);
    const status = await (await fetch(`${w.t.baseUrl}${/data-status-url="([^"]+)"/.exec(page.html)![1]}`)).json();
    expect(status).toMatchObject({ done: false });
    const pressed = await browser.submit(page, 'action', 'continue');
    expect(pressed.location ?? '').not.toContain('code=');
  });

  it('garbage of every size at the response_uri: always a 400, never a 5xx', async () => {
    const { page } = await startWalletLogin(w, 'openid profile');
    const request = await w.wallet.read(walletLinks(page).crossDevice);
    const random = mulberry32(7);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~';
    for (const size of [0, 1, 10, 100, 1000, 10_000, 100_000, 1_000_000]) {
      const garbage = Array.from({ length: size }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const answer = await w.wallet.post(request, { response: garbage });
      expect([size, answer.status]).toEqual([size, 400]);
    }
  });

  it('garbage at the request_uri (wallet_metadata, wallet_nonce, other bodies): a 400 or 415, never a 5xx, and the request stays', async () => {
    const { page } = await startWalletLogin(w, 'openid profile');
    const requestUri = new URL(walletLinks(page).crossDevice).searchParams.get('request_uri')!;
    const random = mulberry32(11);
    const junk = (n: number) => Array.from({ length: n }, () => String.fromCharCode(32 + Math.floor(random() * 95))).join('');
    const bodies: [string, string][] = [
      ['application/x-www-form-urlencoded', new URLSearchParams({ wallet_metadata: junk(100) }).toString()],
      ['application/x-www-form-urlencoded', new URLSearchParams({ wallet_metadata: JSON.stringify({ a: Array(600).fill({ b: 1 }) }) }).toString()],
      ['application/x-www-form-urlencoded', new URLSearchParams({ wallet_metadata: '['.repeat(5000) }).toString()],
      ['application/x-www-form-urlencoded', new URLSearchParams({ wallet_nonce: junk(300) }).toString()],
      ['application/x-www-form-urlencoded', new URLSearchParams({ wallet_nonce: 'ok\u0000' }).toString()],
      ['application/x-www-form-urlencoded', `wallet_metadata=${'x'.repeat(70_000)}`],
      ['text/plain', 'wallet_nonce=abc'],
      ['application/json', JSON.stringify({ wallet_nonce: 'abc' })],
    ];
    for (const [type, body] of bodies) {
      const res = await fetch(requestUri, { method: 'POST', headers: { 'content-type': type }, body });
      expect([type, body.slice(0, 40), res.status >= 400 && res.status < 500]).toEqual([type, body.slice(0, 40), true]);
    }
    expect((await w.wallet.answer(walletLinks(page).crossDevice, { use: 'pid_sd_jwt' })).status).toBe(200);
  });

  it('well encrypted answers whose presentations are not presentations: a 400 each', async () => {
    for (const vp of [{ pid_sd_jwt: ['~'] }, { pid_sd_jwt: ['a.b.c~d~'] }, { pid_mdoc: ['AAAA'] }, { mdl: ['2BhYIA'] }, { mdl: ['oA'] }]) {
      const { page } = await startWalletLogin(w, 'openid profile');
      const request = await w.wallet.read(walletLinks(page).crossDevice);
      const answer = await w.wallet.post(request, { response: await walletEncrypts(request, { vp_token: vp, state: request.claims.state }) });
      expect([Object.keys(vp)[0], answer.status, answer.body.check]).toEqual([Object.keys(vp)[0], 400, expect.stringMatching(/^(malformed|wrong_binding)$/)]);
    }
  });
});
