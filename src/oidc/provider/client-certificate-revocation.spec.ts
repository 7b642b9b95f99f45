// @peculiar/x509 (the delta CRL extension below) needs the Reflect metadata polyfill first.
import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { createTestRoot, issueTestCrl, issueTestLeaf, type IssueTestCrlOptions, type TestCertificate } from '@identity-broker/eu-wallet';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { addLogSink } from '../../common/logging/logger.js';
import { ConfigError } from '../../config/app-config.js';
import type { ClientCertificateConfig } from '../../config/client-certificate-config.js';
import { newKeyAndCertificate } from '../../common/keys/self-signed.js';
import { ClientCertificateRevocation } from './client-certificate-revocation.js';
import { mutualTlsFeature } from './mutual-tls.js';

const DAY = 86_400_000;
const dates = { notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 30 * DAY) };
const pemOfCrl = (der: Uint8Array) =>
  `-----BEGIN X509 CRL-----\n${Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim()}\n-----END X509 CRL-----\n`;

/** Every log line while `run` runs, kept off the test output. */
async function logsOf(run: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  const stop = addLogSink((line) => lines.push(line), { capture: true });
  try {
    await run();
  } finally {
    stop();
  }
  return lines.join('');
}

async function problemsOf(load: Promise<unknown>): Promise<string[]> {
  const error = await load.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  return error.problems;
}

describe('revocation of tls_client_auth certificates by CLIENT_CERT_CRL_FILE (RFC 8705 §2.1, RFC 5280 §6.3.3)', () => {
  let dir: string;
  let ca: TestCertificate;
  let otherCa: TestCertificate;
  let good: X509Certificate;
  let revoked: X509Certificate;
  let later: X509Certificate;
  let setting: ClientCertificateConfig;
  let file: string;
  let step = 0;

  /** Writes the file anew with a later mtime than before (a cron's replacement, seen by the next look). */
  function replaceFile(content: string | Uint8Array): void {
    writeFileSync(file, content);
    const at = new Date(Date.now() + ++step * 10_000);
    utimesSync(file, at, at);
  }
  const crlOf = async (options: IssueTestCrlOptions = {}, root = ca) => pemOfCrl(await issueTestCrl(root, options));
  const load = (overrides: Partial<ClientCertificateConfig> = {}) => ClientCertificateRevocation.of({ ...setting, ...overrides });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'client-crl-'));
    ca = await createTestRoot({ ...dates, commonName: 'Test Client CA', country: 'NO' });
    otherCa = await createTestRoot({ ...dates, commonName: 'Other Client CA', country: 'NO' });
    const leaf = async (commonName: string) => new X509Certificate((await issueTestLeaf(ca, { ...dates, commonName, country: 'NO' })).der);
    [good, revoked, later] = await Promise.all([leaf('rp.bank.example'), leaf('rp.revoked.example'), leaf('rp.later.example')]);
    file = join(dir, 'crls.pem');
    setting = { header: 'x-ssl-client-cert', proxies: [], trustedIssuers: [new X509Certificate(ca.der)], crlFile: file };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a serial the CA lists, lets an unlisted one through, and has no verdict for a certificate of no listed CA', async () => {
    replaceFile(await crlOf({ revoked: [revoked.raw] }));
    const revocation = (await load())!;
    expect(await revocation.verdictOf(good)).toBe('good');
    const logs = await logsOf(async () => expect(await revocation.verdictOf(revoked)).toBe('revoked'));
    expect(logs).toContain('a revoked tls_client_auth certificate was refused');
    expect(logs).toContain(revoked.serialNumber);
    const selfSigned = new X509Certificate((await newKeyAndCertificate('CN=rp.bank.example', 1)).certificatePem);
    expect(await revocation.verdictOf(selfSigned)).toBeUndefined();
    expect(await load({ crlFile: undefined })).toBeUndefined();
  });

  it('reads one DER CRL as well as PEM blocks, and the CRLs of two CAs in one file', async () => {
    replaceFile(await issueTestCrl(ca, { revoked: [revoked.raw] }));
    const der = (await load())!;
    await logsOf(async () => expect(await der.verdictOf(revoked)).toBe('revoked'));
    replaceFile((await crlOf()) + (await crlOf({}, otherCa)));
    const both = (await load({ trustedIssuers: [new X509Certificate(ca.der), new X509Certificate(otherCa.der)] }))!;
    expect(await both.verdictOf(revoked)).toBe('good');
  });

  it('fails closed on a CRL past its nextUpdate: refused, and a warning names the issuer and serial, not the certificate', async () => {
    replaceFile(await crlOf({ thisUpdate: new Date(Date.now() - 2 * DAY), nextUpdate: new Date(Date.now() - DAY) }));
    let revocation: ClientCertificateRevocation | undefined;
    const atLoad = await logsOf(async () => (revocation = await load()));
    expect(atLoad).toContain('past its nextUpdate');
    const logs = await logsOf(async () => expect(await revocation!.verdictOf(good)).toBe('undecided'));
    expect(logs).toContain('it is refused');
    expect(logs).toContain(good.serialNumber);
    expect(logs).toContain('CN=Test Client CA');
    expect(logs).not.toContain('rp.bank.example');
    expect(logs).not.toContain(good.raw.toString('base64').slice(0, 40));
  });

  it('does not keep a good verdict past the nextUpdate of the CRL that gave it', async () => {
    replaceFile(await crlOf({ nextUpdate: new Date(Date.now() + 60 * 60_000) }));
    const revocation = (await load())!;
    expect(await revocation.verdictOf(good)).toBe('good');
    await logsOf(async () => expect(await revocation.verdictOf(good, new Date(Date.now() + 2 * 60 * 60_000))).toBe('undecided'));
  });

  it('refuses at load a CRL signed by another key than its CA (a CA of the same name), naming the file', async () => {
    const impostor = await createTestRoot({ ...dates, commonName: 'Test Client CA', country: 'NO' });
    replaceFile(await crlOf({}, impostor));
    const problems = await problemsOf(load());
    expect(problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^CLIENT_CERT_CRL_FILE: .*crls\.pem: the CRL of .* is not signed by any CA of CLIENT_CERT_CA_FILE/)]),
    );
  });

  it('refuses at load a CA of CLIENT_CERT_CA_FILE without a CRL in the file (no silent gap)', async () => {
    replaceFile(await crlOf());
    const problems = await problemsOf(load({ trustedIssuers: [new X509Certificate(ca.der), new X509Certificate(otherCa.der)] }));
    expect(problems).toEqual([expect.stringMatching(/crls\.pem has no CRL of the CA "C=NO, O=Test, CN=Other Client CA"/)]);
  });

  it('refuses at load a file that is missing, holds no CRL, or a CRL this reader cannot use', async () => {
    expect(await problemsOf(load({ crlFile: join(dir, 'missing.pem') }))).toEqual([
      expect.stringMatching(/^CLIENT_CERT_CRL_FILE: no readable file at .*missing\.pem/),
    ]);
    replaceFile('no CRL here');
    expect(await problemsOf(load())).toEqual([expect.stringMatching(/crls\.pem holds no CRL/)]);
    replaceFile(`${(await crlOf()).slice(0, 200)}`);
    expect(await problemsOf(load())).toEqual([expect.stringMatching(/holds no complete PEM "X509 CRL" block/)]);
    replaceFile(await crlOf({ extensions: [new x509.Extension('2.5.29.27', true, new Uint8Array([2, 1, 1]))] }));
    expect(await problemsOf(load())).toEqual(
      expect.arrayContaining([expect.stringMatching(/cannot be used: it is a delta CRL/), expect.stringMatching(/has no CRL of the CA/)]),
    );
  });

  it('picks up a newly revoked serial when the file changes, and keeps the CRLs in force when a new file fails its checks', async () => {
    replaceFile(await crlOf({ revoked: [revoked.raw] }));
    const revocation = (await load())!;
    expect(await revocation.verdictOf(later)).toBe('good');
    await revocation.reloadIfChanged(); // unchanged: nothing read
    replaceFile(await crlOf({ revoked: [revoked.raw, later.raw] }));
    const reloaded = await logsOf(() => revocation.reloadIfChanged());
    expect(reloaded).toContain('CLIENT_CERT_CRL_FILE read again');
    await logsOf(async () => expect(await revocation.verdictOf(later)).toBe('revoked'));

    for (const broken of ['not a CRL', await crlOf({}, otherCa)]) {
      replaceFile(broken);
      const logs = await logsOf(() => revocation.reloadIfChanged());
      expect(logs).toContain('fails its checks; the CRLs in force are kept');
      expect(await revocation.verdictOf(good)).toBe('good');
      await logsOf(async () => expect(await revocation.verdictOf(later)).toBe('revoked'));
      // The broken version is reported once, not at every look.
      expect(await logsOf(() => revocation.reloadIfChanged())).toBe('');
    }
    rmSync(file);
    expect(await logsOf(() => revocation.reloadIfChanged())).toContain('cannot be read; the CRLs in force are kept');
    expect(await revocation.verdictOf(good)).toBe('good');
  });

  it("lets the engine's certificateAuthorized through only with a good verdict worked out for the request's own certificate", async () => {
    replaceFile(await crlOf({ revoked: [revoked.raw] }));
    const revocation = (await load())!;
    const proxied = { ...setting, proxies: [{ address: '127.0.0.2', prefix: 32, family: 'ipv4' as const }] };
    const feature = mutualTlsFeature(proxied, revocation);
    const requestWith = (certificate: X509Certificate) =>
      ({ socket: { remoteAddress: '127.0.0.2' }, headers: { 'x-ssl-client-cert': encodeURIComponent(certificate.toString()) } }) as unknown as IncomingMessage;
    const authorized = (req: IncomingMessage) => feature.certificateAuthorized({ req } as KoaContextWithOIDC);
    const [goodRequest, revokedRequest, unjudged] = [requestWith(good), requestWith(revoked), requestWith(good)];
    await revocation.judgeRequest(goodRequest, good);
    await logsOf(() => revocation.judgeRequest(revokedRequest, revoked));
    expect(authorized(goodRequest)).toBe(true);
    expect(authorized(revokedRequest)).toBe(false);
    expect(authorized(unjudged)).toBe(false);
    expect(revocation.isCleared(goodRequest, later)).toBe(false);
    expect(mutualTlsFeature(proxied).certificateAuthorized({ req: requestWith(revoked) } as KoaContextWithOIDC)).toBe(true);
  });
});
