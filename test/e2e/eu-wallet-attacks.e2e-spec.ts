import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createStatusList,
  fullDate,
  issueSdJwtVc,
  issueTestMdoc,
  SPECIMEN_PID_CLAIMS,
  issueTestCrl,
  createTestRoot,
  createTestSigner,
  type TestCertificate,
  type TestSigner,
} from '@identity-broker/eu-wallet';
import { mulberry32 } from '../support/seeded-random.js';
import { TestBrowser } from '../support/test-browser.js';
import { walletEncrypts } from '../support/wallet/jose-wallet.js';
import { redeem, startWalletLogin, walletLinks } from '../support/wallet/wallet-login.js';
import { newHolderKey, TestWallet } from '../../scripts/test-wallet/wallet.js';
import { walletWorld, type WalletWorld } from '../support/wallet/wallet-world.js';

/**
 * The attacks on the wallet scheme, each its own test, through the service's endpoints: every one is refused with
 * a 400 naming the check; a refused presentation is shown to the person and ends nothing (eu-wallet-strangers).
 */
describe('EU wallet scheme: attacks', () => {
  let w: WalletWorld;
  /** Trusted beside customer-test's own: a second PID provider, and an IACA whose Document Signers name its CRL. */
  let secondProvider: TestSigner;
  let iaca: TestCertificate;
  let documentSigners: TestSigner[];
  /** The loopback server of this test: /status/1 the second provider's status list, /iaca.crl the IACA's CRL. */
  let server: Server;
  let served: { crl?: Uint8Array };
  const local = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;

  beforeAll(async () => {
    served = {};
    server = createServer((req, res) => {
      if (req.url === '/status/1')
        return res.writeHead(200).end(createStatusList({ signer: secondProvider, uri: local('/status/1'), bits: 2, values: [0, 0, 0, 0] }));
      if (req.url === '/iaca.crl' && served.crl) return res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(served.crl);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dates = { notBefore: new Date(Date.now() - 86_400_000), notAfter: new Date(Date.now() + 365 * 86_400_000) };
    secondProvider = await createTestSigner({ rootName: 'Second PID Provider CA', signerName: 'Second PID Provider', uri: 'https://second-pid.test.invalid' });
    iaca = await createTestRoot({ ...dates, commonName: 'Revoking IACA', country: 'UT' });
    const ds = (name: string) => createTestSigner({ ...dates, root: iaca, rootName: 'unused', signerName: name, country: 'UT', crlUrls: [local('/iaca.crl')] });
    documentSigners = await Promise.all([ds('Document Signer A'), ds('Document Signer B')]);
    const files = { pid: join(tmpdir(), `second-pid-${process.pid}.der`), iaca: join(tmpdir(), `revoking-iaca-${process.pid}.der`) };
    writeFileSync(files.pid, secondProvider.root);
    writeFileSync(files.iaca, iaca.der);
    w = await walletWorld(undefined, { WALLET_PID_ANCHORS: files.pid, WALLET_MDL_ANCHORS: files.iaca });
  }, 120_000);
  afterAll(async () => {
    await w?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** A wallet holding one mDL issued by a Document Signer of the revoking IACA. */
  async function walletWithMdl(signer: TestSigner) {
    const key = newHolderKey();
    const values = {
      family_name: 'Svensson',
      given_name: 'Anna',
      birth_date: fullDate('1990-02-03'),
      issuing_country: 'UT',
      document_number: 'UT7654321',
      age_over_18: true,
    };
    const mdoc = await issueTestMdoc({ docType: 'org.iso.18013.5.1.mDL', namespaces: { 'org.iso.18013.5.1': values }, signer, deviceKey: key.publicJwk });
    return new TestWallet(w.authorities.requestSigner.root, [{ kind: 'mdl', mdoc, deviceKey: key.privateKey.export({ format: 'jwk' }) as never }]);
  }

  const refusedWith = (answer: { status: number; body: Record<string, unknown> }) => [answer.status, answer.body.check];

  /** A PID SD-JWT VC of our own making, for a wallet that holds only it. */
  async function walletWithPid(options: { signer?: TestSigner; expiresAt?: Date; issuedAt?: Date; status?: { uri: string; idx: number }; iss?: string } = {}) {
    const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credential = await issueSdJwtVc({
      signer: options.signer ?? w.authorities.pidProvider,
      holderKey: holder.publicKey,
      claims: { ...SPECIMEN_PID_CLAIMS, issuing_country: 'AT' },
      ...options,
    });
    return new TestWallet(w.authorities.requestSigner.root, [{ kind: 'pid_sd_jwt', credential, holderKey: holder.privateKey }]);
  }

  it('a response posted twice: the second is refused as replayed, the first login goes through', async () => {
    const { browser, page, request } = await startWalletLogin(w, 'openid profile');
    const first = await w.wallet.answer(walletLinks(page).crossDevice, { use: 'pid_sd_jwt' });
    expect(first.status).toBe(200);
    const again = await w.wallet.post(first.request, {
      response: await walletEncrypts(first.request, { vp_token: await w.wallet.presentations(first.request, 'pid_sd_jwt'), state: first.request.claims.state }),
    });
    expect(refusedWith(again)).toEqual([400, 'replayed']);
    expect((await redeem(w, await browser.submit(page, 'action', 'continue'), request)).claims()?.given_name).toBe('Erika');
  });

  it('an unencrypted vp_token where direct_post.jwt was asked: refused, and the transaction stays for the real answer', async () => {
    const { page } = await startWalletLogin(w, 'openid profile');
    const link = walletLinks(page).crossDevice;
    const plain = await w.wallet.answer(link, {
      use: 'pid_sd_jwt',
      form: (_jwe, request) => ({ vp_token: JSON.stringify({ pid_sd_jwt: ['x'] }), state: request.claims.state }),
    });
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
    const answer = await w.wallet.post(request, {
      response: await walletEncrypts(request, {
        vp_token: await w.wallet.presentations(request, 'pid_sd_jwt', { clientId: bare }),
        state: request.claims.state,
      }),
    });
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

  it('a PID whose status list is signed by another trusted PID provider: refused, status_signer_mismatch', async () => {
    const wallet = await walletWithPid({ status: { uri: local('/status/1'), idx: 0 } });
    const { page } = await startWalletLogin(w, 'openid profile');
    expect(refusedWith(await wallet.answer(walletLinks(page).crossDevice, { use: 'pid_sd_jwt' }))).toEqual([400, 'status_signer_mismatch']);
  });

  it("a PID whose iss its x5c leaf does not name (another provider's identifier): refused, issuer_mismatch", async () => {
    const wallet = await walletWithPid({ iss: 'https://second-pid.test.invalid' });
    const { page } = await startWalletLogin(w, 'openid profile');
    expect(refusedWith(await wallet.answer(walletLinks(page).crossDevice, { use: 'pid_sd_jwt' }))).toEqual([400, 'issuer_mismatch']);
  });

  it("an mDL whose Document Signer is on its IACA's CRL (fetched from the distribution point): refused, certificate_revoked; its sibling passes", async () => {
    const [kept, revoked] = documentSigners;
    served.crl = await issueTestCrl(iaca, { revoked: [revoked.chain[0]] });
    const refused = await startWalletLogin(w, 'openid');
    expect(refusedWith(await (await walletWithMdl(revoked)).answer(walletLinks(refused.page).crossDevice, { use: 'mdl' }))).toEqual([
      400,
      'certificate_revoked',
    ]);
    const passed = await startWalletLogin(w, 'openid');
    expect((await (await walletWithMdl(kept)).answer(walletLinks(passed.page).crossDevice, { use: 'mdl' })).status).toBe(200);
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
