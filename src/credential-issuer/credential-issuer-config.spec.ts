import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadCredentialIssuerConfig } from '../config/credential-issuer-config.js';
import { loadConfig } from '../config/load-config.js';
import { loadFileSigner } from './keys/file-issuer-signer.js';
import { certificateThumbprint } from './keys/issuer-certificates.js';
import { writeIssuerFiles } from '../../test/support/issuer-files.js';
import { configProblems } from '../../test/support/config-problems.js';

const problemsOf = configProblems;

const production = (extra: Record<string, string> = {}) => ({
  APP_ENV: 'production',
  BASE_URL: 'https://broker.example',
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  COOKIE_KEYS: randomBytes(32).toString('hex'),
  SUBJECT_SECRET: randomBytes(32).toString('hex'),
  PAIRWISE_SECRET: randomBytes(32).toString('hex'),
  TRUST_CSCA_PATHS: '/etc/broker/csca',
  DATABASE_URL: 'postgresql://db.internal/broker',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'vci-cfg-')),
  ...extra,
});

describe('credential issuer configuration', () => {
  it('has its defaults, and customer-test needs no files', () => {
    expect(loadCredentialIssuerConfig({}, false)).toEqual({
      enabled: true,
      signer: undefined,
      anchorPaths: [],
      previousCertificatePaths: [],
      credentialMaxLifetimeDays: 365,
      statusListTtlSeconds: 300,
      offerTtlSeconds: 600,
      batchSize: 10,
      statusListRefreshSeconds: 5,
      keyReloadSeconds: 60,
      walletClients: [],
    });
  });

  it('leaves the issuer off in production without its key and chain, and stops a start that asks for it without them', () => {
    expect(loadConfig(production()).credentialIssuer.enabled).toBe(false);
    const problems = problemsOf(() => loadConfig(production({ VCI_ENABLED: 'true' })));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^VCI_ISSUER_KEY_FILE and VCI_ISSUER_CERTIFICATE_CHAIN_FILE: VCI_ENABLED=true in production needs/);
    expect(problemsOf(() => loadConfig(production({ VCI_ENABLED: 'false' })))).toEqual([]);
  });

  it('refuses half a signer, missing files and values out of range', async () => {
    const files = await writeIssuerFiles();
    expect(problemsOf(() => loadCredentialIssuerConfig({ VCI_ISSUER_KEY_FILE: files.keyFile }, false))[0]).toMatch(/set both/);
    expect(
      problemsOf(() => loadCredentialIssuerConfig({ VCI_ISSUER_KEY_FILE: '/nowhere/key.pem', VCI_ISSUER_CERTIFICATE_CHAIN_FILE: files.chainFile }, true)),
    ).toEqual(['VCI_ISSUER_KEY_FILE: no file at /nowhere/key.pem']);
    const bounds = problemsOf(() =>
      loadCredentialIssuerConfig(
        { VCI_BATCH_SIZE: '21', VCI_CREDENTIAL_MAX_LIFETIME_DAYS: '0', VCI_STATUS_LIST_TTL_SECONDS: '10', VCI_ENABLED: 'maybe' },
        false,
      ),
    );
    expect(bounds.map((p) => p.split(':')[0]).sort()).toEqual([
      'VCI_BATCH_SIZE',
      'VCI_CREDENTIAL_MAX_LIFETIME_DAYS',
      'VCI_ENABLED',
      'VCI_STATUS_LIST_TTL_SECONDS',
    ]);
    const config = loadConfig(production({ VCI_ISSUER_KEY_FILE: files.keyFile, VCI_ISSUER_CERTIFICATE_CHAIN_FILE: files.chainFile }));
    expect(config.credentialIssuer.signer).toEqual({ keyFile: files.keyFile, chainFile: files.chainFile });
  });

  it("reads the production signer: the root at the chain's end is trusted, not sent", async () => {
    const files = await writeIssuerFiles();
    const config = loadCredentialIssuerConfig({ VCI_ISSUER_KEY_FILE: files.keyFile, VCI_ISSUER_CERTIFICATE_CHAIN_FILE: files.chainFile }, true);
    const { signer, anchors } = loadFileSigner(config);
    expect(signer.chain).toEqual([files.leaf.der]);
    expect(anchors).toEqual([files.root.der]);
    expect(signer.kid).toBe(certificateThumbprint(files.leaf.der));
    // Without the root in the chain file, VCI_ISSUER_ANCHORS names it.
    const separate = loadFileSigner(
      loadCredentialIssuerConfig(
        { VCI_ISSUER_KEY_FILE: files.keyFile, VCI_ISSUER_CERTIFICATE_CHAIN_FILE: files.leafOnlyFile, VCI_ISSUER_ANCHORS: files.rootFile },
        true,
      ),
    );
    expect([separate.signer.chain, separate.anchors]).toEqual([[files.leaf.der], [files.root.der]]);
  });

  it('reads the replaced signers whose credentials may still be valid; a missing file or a key other than P-256 stops the start', async () => {
    const [files, before] = [await writeIssuerFiles(), await writeIssuerFiles()];
    const base = { VCI_ISSUER_KEY_FILE: files.keyFile, VCI_ISSUER_CERTIFICATE_CHAIN_FILE: files.chainFile };
    const { previous } = loadFileSigner(loadCredentialIssuerConfig({ ...base, VCI_ISSUER_PREVIOUS_CERTIFICATES: before.leafOnlyFile }, true));
    expect(previous).toEqual([{ kid: certificateThumbprint(before.leaf.der), chain: [before.leaf.der], notAfter: expect.any(Date) }]);
    expect(problemsOf(() => loadCredentialIssuerConfig({ ...base, VCI_ISSUER_PREVIOUS_CERTIFICATES: '/nowhere/old.pem' }, true))).toEqual([
      'VCI_ISSUER_PREVIOUS_CERTIFICATES: no file or folder at /nowhere/old.pem',
    ]);
    expect(() => loadFileSigner(loadCredentialIssuerConfig({ ...base, VCI_ISSUER_PREVIOUS_CERTIFICATES: before.keyFile }, true))).toThrow(
      /is not a certificate/,
    );
    expect(() =>
      loadFileSigner(
        loadCredentialIssuerConfig({ ...base, VCI_ISSUER_PREVIOUS_CERTIFICATES: resolve('test/fixtures/icao/real-documents/csca/CSCA_UK.cer') }, true),
      ),
    ).toThrow(/VCI_ISSUER_PREVIOUS_CERTIFICATES .* not of a P-256 \(ES256\) key/);
  });

  it("stops the start on a key that is not the chain's, not P-256, or a chain in the wrong order", async () => {
    const files = await writeIssuerFiles();
    const load = (keyFile: string, chainFile: string) => () =>
      loadFileSigner(loadCredentialIssuerConfig({ VCI_ISSUER_KEY_FILE: keyFile, VCI_ISSUER_CERTIFICATE_CHAIN_FILE: chainFile }, true));
    expect(load(files.otherKeyFile, files.chainFile)).toThrow(/is not the certificate of VCI_ISSUER_KEY_FILE/);
    expect(load(files.p384KeyFile, files.chainFile)).toThrow(/must be a P-256/);
    expect(load(files.keyFile, files.reversedChainFile)).toThrow(/is not the certificate of VCI_ISSUER_KEY_FILE/);
    expect(load(files.chainFile, files.chainFile)).toThrow(/is not a PEM private key/);
  });

  it('reads the wallets of the authorization code flow, and refuses what could send a code astray', () => {
    const clients = (value: unknown, production = false) => loadCredentialIssuerConfig({ VCI_WALLET_CLIENTS: JSON.stringify(value) }, production);
    expect(clients([{ client_id: 'eu.wallet', redirect_uris: ['https://wallet.example/cb', 'eu.europa.wallet:/cb'] }]).walletClients).toEqual([
      { clientId: 'eu.wallet', redirectUris: ['https://wallet.example/cb', 'eu.europa.wallet:/cb'] },
    ]);
    expect(clients([{ client_id: 'test', redirect_uris: ['http://127.0.0.1:4000/cb'] }]).walletClients).toHaveLength(1);
    const refused: [unknown, boolean][] = [
      [[{ client_id: 'test', redirect_uris: ['http://127.0.0.1:4000/cb'] }], true],
      [[{ client_id: 'w', redirect_uris: ['http://wallet.example/cb'] }], false],
      [[{ client_id: 'w', redirect_uris: ['https://wallet.example/cb#x'] }], false],
      [[{ client_id: 'w', redirect_uris: [] }], false],
      [
        [
          { client_id: 'w', redirect_uris: ['https://a.example/'] },
          { client_id: 'w', redirect_uris: ['https://b.example/'] },
        ],
        false,
      ],
      [{ client_id: 'w' }, false],
    ];
    for (const [value, production] of refused) expect(problemsOf(() => clients(value, production))[0]).toMatch(/^VCI_WALLET_CLIENTS: /);
    expect(problemsOf(() => loadCredentialIssuerConfig({ VCI_WALLET_CLIENTS: '[{' }, false))).toEqual([
      'VCI_WALLET_CLIENTS: is not JSON (a list of {"client_id", "redirect_uris"})',
    ]);
  });
});
