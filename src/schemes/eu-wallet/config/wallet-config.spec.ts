import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { issueTestCrl, createTestRoot, createTestSigner, type TestSigner } from '@identity-broker/eu-wallet';
import { loadWalletConfig, walletConfig } from './wallet-config.js';
import { readWalletCrls } from './wallet-crls.js';
import { WalletTrustService } from '../trust/wallet-trust.service.js';
import { type AppConfig, loadConfig } from '../../../config/load-config.js';
import type { WalletTestAuthoritiesService } from '../trust/wallet-test-authorities.service.js';
import { configProblems } from '../../../../test/support/config-problems.js';

/** The core's configuration with the wallet's section, as the service reads it (loadServiceConfig adds every scheme's). */
const loadServiceConfig = (env: Record<string, string | undefined>) => loadConfig(env, [{ name: 'eu-wallet', load: loadWalletConfig }]);

const problemsOf = configProblems;
const pem = (der: Uint8Array) => new X509Certificate(der).toString();

describe('EU wallet configuration (WALLET_*)', () => {
  let dir: string;
  let signer: TestSigner;
  let pid: TestSigner;
  let files: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallet-config-'));
    [signer, pid] = await Promise.all([
      createTestSigner({ rootName: 'RP CA', signerName: 'Verifier', dnsName: 'broker.example' }),
      createTestSigner({ rootName: 'PID Provider CA', signerName: 'PID Provider' }),
    ]);
    files = { key: join(dir, 'request-key.pem'), chain: join(dir, 'request-chain.pem'), pidRoot: join(dir, 'pid-root.pem') };
    writeFileSync(files.key, signer.privateKey.export({ format: 'pem', type: 'pkcs8' }));
    writeFileSync(files.chain, signer.chain.map(pem).join('\n'));
    writeFileSync(files.pidRoot, pid.root);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('customer-test offers the wallet with nothing configured; production offers it only with a signer and an anchor', () => {
    expect(loadWalletConfig({}, false)).toMatchObject({ offered: true, clientIdPrefix: 'x509_hash', requestTtlSeconds: 600, statusListMaxCacheSeconds: 3600 });
    expect(loadWalletConfig({}, true).offered).toBe(false);
    const full = { WALLET_REQUEST_KEY_FILE: files.key, WALLET_REQUEST_CERTIFICATE_CHAIN_FILE: files.chain, WALLET_PID_ANCHORS_HIGH: files.pidRoot };
    expect(loadWalletConfig(full, true)).toMatchObject({ offered: true, anchors: { pid: [], pidHigh: [files.pidRoot], mdl: [] } });
  });

  it('fails at start, naming each problem: half a signer, half a production setup, missing files, bad values', () => {
    expect(problemsOf(() => loadWalletConfig({ WALLET_REQUEST_KEY_FILE: files.key }, false))).toEqual([
      expect.stringMatching(/^WALLET_REQUEST_KEY_FILE and WALLET_REQUEST_CERTIFICATE_CHAIN_FILE: set both/),
    ]);
    expect(problemsOf(() => loadWalletConfig({ WALLET_REQUEST_KEY_FILE: files.key, WALLET_REQUEST_CERTIFICATE_CHAIN_FILE: files.chain }, true))).toEqual([
      expect.stringMatching(/production offers the wallet with a request signer and at least one trust anchor, or neither/),
    ]);
    expect(problemsOf(() => loadWalletConfig({ WALLET_MDL_ANCHORS: join(dir, 'nowhere.pem') }, false))).toEqual([
      expect.stringMatching(/no file or folder at .*nowhere\.pem/),
    ]);
    expect(problemsOf(() => loadWalletConfig({ WALLET_CLIENT_ID_PREFIX: 'redirect_uri', WALLET_REQUEST_TTL_SECONDS: '5' }, false))).toEqual([
      expect.stringMatching(/^WALLET_CLIENT_ID_PREFIX: /),
      expect.stringMatching(/^WALLET_REQUEST_TTL_SECONDS: /),
    ]);
    // The service's configuration reads the wallet's section (its manifest's) and fails with the same message.
    const dataDir = mkdtempSync(join(tmpdir(), 'wallet-service-config-'));
    expect(problemsOf(() => loadServiceConfig({ DATA_DIR: dataDir, WALLET_REQUEST_KEY_FILE: files.key }))).toEqual([
      expect.stringMatching(/^WALLET_REQUEST_KEY_FILE and WALLET_REQUEST_CERTIFICATE_CHAIN_FILE: set both/),
    ]);
    expect(walletConfig(loadServiceConfig({ DATA_DIR: dataDir })).offered).toBe(true);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("trusts the service's own reusable credential unless WALLET_TRUST_OWN_CREDENTIALS is false", () => {
    expect(loadWalletConfig({}, false).trustOwnCredentials).toBe(true);
    expect(loadWalletConfig({ WALLET_TRUST_OWN_CREDENTIALS: 'false' }, true).trustOwnCredentials).toBe(false);
    expect(loadWalletConfig({ WALLET_TRUST_OWN_CREDENTIALS: 'true' }, false).trustOwnCredentials).toBe(true);
    expect(problemsOf(() => loadWalletConfig({ WALLET_TRUST_OWN_CREDENTIALS: 'yes' }, false))).toEqual([
      expect.stringMatching(/^WALLET_TRUST_OWN_CREDENTIALS: must be true or false/),
    ]);
  });

  it('reads WALLET_TRUST_CRLS (PEM with several CRLs, DER, folders) and stops the start on a file that is not a CRL, naming it', async () => {
    const root = await createTestRoot({ commonName: 'CRL CA', notBefore: new Date(Date.now() - 86_400_000), notAfter: new Date(Date.now() + 86_400_000) });
    const pemOf = (der: Uint8Array) =>
      `-----BEGIN X509 CRL-----\n${Buffer.from(der)
        .toString('base64')
        .replace(/(.{64})/g, '$1\n')}\n-----END X509 CRL-----\n`;
    // Not under `dir`, whose files the next tests read as trust lists.
    const folder = mkdtempSync(join(tmpdir(), 'wallet-crls-'));
    writeFileSync(join(folder, 'two.pem'), pemOf(await issueTestCrl(root)) + pemOf(await issueTestCrl(root, { revoked: [pid.chain[0]] })));
    writeFileSync(join(folder, 'one.crl'), await issueTestCrl(root));
    const config = loadWalletConfig({ WALLET_TRUST_CRLS: folder }, true);
    expect(config.trustCrls).toEqual([folder]);
    const crls = readWalletCrls(config.trustCrls);
    expect(crls.map((c) => [c.issuer.includes('CN=CRL CA'), c.crl.entries.length])).toEqual([
      [true, 0],
      [true, 0],
      [true, 1],
    ]);
    expect(problemsOf(() => loadWalletConfig({ WALLET_TRUST_CRLS: `${folder},${files.pidRoot},${join(dir, 'none.crl')}` }, false))).toEqual([
      expect.stringMatching(/^WALLET_TRUST_CRLS: .*pid-root\.pem is not a CRL \(PEM or DER\)$/),
      expect.stringMatching(/^WALLET_TRUST_CRLS: no file or folder at .*none\.crl$/),
    ]);
    rmSync(folder, { recursive: true, force: true });
  });

  const noTestAuthorities = { get: () => Promise.reject(new Error('production never loads the test authorities')) } as unknown as WalletTestAuthoritiesService;
  const productionTrust = (env: Record<string, string>) =>
    new WalletTrustService({ isProduction: true, schemes: { 'eu-wallet': loadWalletConfig(env, true) } } as unknown as AppConfig, noTestAuthorities);

  it('reads the production signer and the anchors from PEM files, DER files and folders, at start', async () => {
    const folder = mkdtempSync(join(dir, 'anchors-'));
    writeFileSync(join(folder, 'a.pem'), signer.chain.map(pem).join('\n'));
    writeFileSync(join(folder, 'b.der'), pid.root);
    const trust = productionTrust({
      WALLET_REQUEST_KEY_FILE: files.key,
      WALLET_REQUEST_CERTIFICATE_CHAIN_FILE: files.chain,
      WALLET_PID_ANCHORS: files.pidRoot,
      WALLET_MDL_ANCHORS: folder,
    });
    await trust.onModuleInit();
    const loaded = await trust.signer();
    expect(loaded.chain.map((c) => Buffer.from(c).toString('base64'))).toEqual(signer.chain.map((c) => Buffer.from(c).toString('base64')));
    expect(loaded.privateKey.asymmetricKeyType).toBe('ec');
    const anchors = await trust.anchors();
    expect(anchors.pid.map((c) => Buffer.from(c).equals(Buffer.from(pid.root)))).toEqual([true]);
    // The folder holds two certificates in one PEM file and one DER file.
    expect(anchors.mdl).toHaveLength(3);
    expect(anchors.pidHigh).toEqual([]);
  });

  it('stops the start on a trust-list file that is not a certificate, naming it', async () => {
    // `dir` holds the request key beside the certificates.
    const trust = productionTrust({ WALLET_REQUEST_KEY_FILE: files.key, WALLET_REQUEST_CERTIFICATE_CHAIN_FILE: files.chain, WALLET_MDL_ANCHORS: dir });
    await expect(trust.onModuleInit()).rejects.toThrow(/wallet trust list: .*request-key\.pem is not a certificate/);
  });
});
