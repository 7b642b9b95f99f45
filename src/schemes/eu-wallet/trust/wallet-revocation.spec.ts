import { X509Certificate } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WalletCheckError, issueTestCrl, createTestRoot, createTestSigner, type TestCertificate, type TestSigner } from '@identity-broker/eu-wallet';
import { addLogSink, logger, setLogLevel } from '../../../common/logging/logger.js';
import type { AppConfig } from '../../../config/load-config.js';
import { walletRevocation } from './wallet-revocation.js';

const DAY = 86_400_000;

/**
 * The wallet scheme's CRL policy (docs/eu-wallet.md, "Trust and revocation"): distribution points fetched through the
 * service's outbound fetch and its address filter, a revoked certificate refused everywhere, an unknown status refused
 * in production and accepted in customer-test with a warning that names no person.
 */
describe("EU wallet scheme: revocation of the issuers' certificates", () => {
  let server: Server;
  let crl: Uint8Array | undefined;
  let iaca: TestCertificate;
  let ds: TestSigner;
  const path = () => [new X509Certificate(ds.chain[0]), new X509Certificate(iaca.der)];
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (e: unknown) => (e instanceof WalletCheckError ? `${e.code}: ${e.message}` : Promise.reject(e)),
    );
  const config = (isProduction: boolean) => ({ isProduction, schemes: { 'eu-wallet': { trustCrls: [] } } }) as unknown as AppConfig;

  beforeAll(async () => {
    server = createServer((_req, res) => (crl ? res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(crl) : res.writeHead(503).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/iaca.crl`;
    const dates = { notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 365 * DAY) };
    iaca = await createTestRoot({ ...dates, commonName: 'Loopback IACA', country: 'UT' });
    ds = await createTestSigner({ ...dates, root: iaca, rootName: 'unused', signerName: 'Loopback Document Signer', country: 'UT', crlUrls: [url] });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('customer-test fetches the CRL a certificate names (loopback allowed there) and refuses a revoked certificate', async () => {
    crl = await issueTestCrl(iaca, { revoked: [ds.chain[0]] });
    expect(await refusal(walletRevocation(config(false)).checkPath(path()))).toMatch(/^certificate_revoked: .*Loopback Document Signer is revoked/);
    crl = await issueTestCrl(iaca);
    expect(await refusal(walletRevocation(config(false)).checkPath(path()))).toBe('accepted');
  });

  it('production fetches through the address filter: a distribution point on loopback is not fetched, and the unknown status refuses', async () => {
    crl = await issueTestCrl(iaca);
    expect(await refusal(walletRevocation(config(true)).checkPath(path()))).toMatch(
      /^revocation_unknown: the revocation status of .*Loopback Document Signer is unknown: the CRL at http:\/\/127\.0\.0\.1:\d+\/iaca\.crl could not be fetched/,
    );
  });

  it('customer-test accepts a certificate whose CRL cannot be fetched, and logs a warning naming the certificate, not a person', async () => {
    crl = undefined;
    const lines: string[] = [];
    const stop = addLogSink((line) => lines.push(line), { capture: true });
    const level = logger.level;
    setLogLevel('warn');
    try {
      expect(await refusal(walletRevocation(config(false)).checkPath(path()))).toBe('accepted');
    } finally {
      setLogLevel(level);
      stop();
    }
    const warnings = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === 40);
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: expect.stringMatching(/accepted without its revocation status/),
        certificate: expect.stringMatching(/Loopback Document Signer/),
        reasons: [expect.stringMatching(/answered 503/)],
      }),
    ]);
  });
});
