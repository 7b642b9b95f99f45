import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addLogSink } from '../logging/logger.js';
import { ConfigError } from '../../config/app-config.js';
import { loadClientCertificateConfig } from '../../config/client-certificate-config.js';
import { ForwardedClientCertificates, isRegisteredCertificate, parseForwardedCertificate } from './forwarded-client-certificate.js';
import { newKeyAndCertificate } from '../keys/self-signed.js';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadClientCertificateConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
};

describe('client certificate settings (CLIENT_CERT_HEADER, CLIENT_CERT_PROXIES)', () => {
  it('is off unless both the header and the proxies are set, and names the variable when one is missing', () => {
    expect(loadClientCertificateConfig({})).toBeUndefined();
    expect(problemsOf({ CLIENT_CERT_HEADER: 'X-SSL-Client-Cert' })).toEqual([expect.stringMatching(/go together/)]);
    expect(problemsOf({ CLIENT_CERT_PROXIES: '10.0.0.1' })).toEqual([expect.stringMatching(/go together/)]);
    expect(loadClientCertificateConfig({ CLIENT_CERT_HEADER: 'X-SSL-Client-Cert', CLIENT_CERT_PROXIES: '10.0.0.1,fd00::/8' })).toEqual({
      trustedIssuers: [],
      header: 'x-ssl-client-cert',
      proxies: [
        { address: '10.0.0.1', prefix: 32, family: 'ipv4' },
        { address: 'fd00::', prefix: 8, family: 'ipv6' },
      ],
    });
  });

  it('reads the older SAML_ names as the same setting, and refuses the two names set to different values', () => {
    const expected = { header: 'x-ssl-client-cert', proxies: [{ address: '10.0.0.1', prefix: 32, family: 'ipv4' }], trustedIssuers: [] };
    expect(loadClientCertificateConfig({ SAML_CLIENT_CERT_HEADER: 'X-SSL-Client-Cert', SAML_CLIENT_CERT_PROXIES: '10.0.0.1' })).toEqual(expected);
    expect(loadClientCertificateConfig({ CLIENT_CERT_HEADER: 'X-SSL-Client-Cert', SAML_CLIENT_CERT_PROXIES: '10.0.0.1' })).toEqual(expected);
    expect(
      loadClientCertificateConfig({ CLIENT_CERT_HEADER: 'x-ssl-client-cert', SAML_CLIENT_CERT_HEADER: 'X-SSL-Client-Cert', CLIENT_CERT_PROXIES: '10.0.0.1' }),
    ).toEqual(expected);
    expect(problemsOf({ CLIENT_CERT_HEADER: 'X-Client-Cert', SAML_CLIENT_CERT_HEADER: 'X-SSL-Client-Cert', CLIENT_CERT_PROXIES: '10.0.0.1' })).toEqual([
      expect.stringMatching(/^SAML_CLIENT_CERT_HEADER: the older name of CLIENT_CERT_HEADER/),
    ]);
    expect(problemsOf({ CLIENT_CERT_HEADER: 'X-Client-Cert', CLIENT_CERT_PROXIES: '10.0.0.1', SAML_CLIENT_CERT_PROXIES: '10.0.0.2' })).toEqual([
      expect.stringMatching(/^SAML_CLIENT_CERT_PROXIES: the older name/),
    ]);
  });

  it('reads the issuing CAs of tls_client_auth from CLIENT_CERT_CA_FILE, and refuses a missing file, one without certificates, or one without the header', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'client-ca-'));
    try {
      const ca = (await newKeyAndCertificate('CN=Client CA', 1)).certificatePem;
      writeFileSync(join(dir, 'ca.pem'), ca);
      writeFileSync(join(dir, 'empty.pem'), 'no certificate here');
      const proxy = { CLIENT_CERT_HEADER: 'X-SSL-Client-Cert', CLIENT_CERT_PROXIES: '10.0.0.1' };
      expect(loadClientCertificateConfig({ ...proxy, CLIENT_CERT_CA_FILE: join(dir, 'ca.pem') })?.trustedIssuers.map((c) => c.fingerprint256)).toEqual([
        new X509Certificate(ca).fingerprint256,
      ]);
      expect(problemsOf({ ...proxy, CLIENT_CERT_CA_FILE: join(dir, 'missing.pem') })).toEqual([
        expect.stringMatching(/^CLIENT_CERT_CA_FILE: no readable file/),
      ]);
      expect(problemsOf({ ...proxy, CLIENT_CERT_CA_FILE: join(dir, 'empty.pem') })).toEqual([expect.stringMatching(/holds no readable PEM certificate/)]);
      expect(problemsOf({ CLIENT_CERT_CA_FILE: join(dir, 'ca.pem') })).toEqual([expect.stringMatching(/^CLIENT_CERT_CA_FILE: needs CLIENT_CERT_HEADER/)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a range of every address, prefixes out of range, non-addresses and header names with other characters', () => {
    const header = { CLIENT_CERT_HEADER: 'X-SSL-Client-Cert' };
    expect(problemsOf({ ...header, CLIENT_CERT_PROXIES: '0.0.0.0/0' })).toEqual([expect.stringMatching(/CLIENT_CERT_PROXIES: .*trust anyone/)]);
    expect(problemsOf({ ...header, CLIENT_CERT_PROXIES: '::/0' })).toHaveLength(1);
    expect(problemsOf({ ...header, CLIENT_CERT_PROXIES: '10.0.0.0/33' })).toHaveLength(1);
    expect(problemsOf({ ...header, CLIENT_CERT_PROXIES: '10.0.0.300' })).toEqual([expect.stringMatching(/not an IP address/)]);
    expect(problemsOf({ CLIENT_CERT_HEADER: 'X-Cert: evil', CLIENT_CERT_PROXIES: '10.0.0.1' })).toEqual([expect.stringMatching(/^CLIENT_CERT_HEADER/)]);
    expect(problemsOf({ SAML_CLIENT_CERT_HEADER: 'X-Cert: evil', CLIENT_CERT_PROXIES: '10.0.0.1' })).toEqual([
      expect.stringMatching(/^SAML_CLIENT_CERT_HEADER/),
    ]);
  });
});

describe('the certificate a proxy passes on', () => {
  let pem: string;
  beforeAll(async () => {
    pem = (await newKeyAndCertificate('CN=sp.shop.example', 1)).certificatePem;
  });

  it("reads nginx's URL-escaped PEM, plain PEM and base64 DER as the same certificate", () => {
    const der = new X509Certificate(pem).raw;
    for (const value of [encodeURIComponent(pem), pem, der.toString('base64')]) expect(parseForwardedCertificate(value)?.raw.equals(der)).toBe(true);
  });

  it('takes an empty header, "-", garbage and an oversized header as no certificate', () => {
    for (const value of [undefined, '', '-', 'not a certificate', '%E0%A4%A', 'QUJD', encodeURIComponent(pem) + 'A'.repeat(20_000)])
      expect(parseForwardedCertificate(value)).toBeUndefined();
  });

  it('matches only the registered certificate, and only while it is valid', async () => {
    const presented = new X509Certificate(pem);
    const other = (await newKeyAndCertificate('CN=sp.shop.example', 1)).certificatePem;
    expect(isRegisteredCertificate(presented, pem)).toBe(true);
    expect(isRegisteredCertificate(presented, other)).toBe(false);
    expect(isRegisteredCertificate(presented, null)).toBe(false);
    expect(isRegisteredCertificate(presented, 'not a pem')).toBe(false);
    expect(isRegisteredCertificate(presented, pem, new Date(Date.now() + 2 * 366 * 86_400_000))).toBe(false);
  });

  it("believes the header only from a trusted proxy's own address, an IPv4 proxy on a dual-stack socket included", () => {
    const certificates = new ForwardedClientCertificates('x-ssl-client-cert', [{ address: '10.1.0.0', prefix: 16, family: 'ipv4' }]);
    const headers = { 'x-ssl-client-cert': 'value', 'x-forwarded-for': '10.1.2.3' };
    expect(certificates.fromTrustedProxy('10.1.2.3', headers)).toBe('value');
    expect(certificates.fromTrustedProxy('::ffff:10.1.2.3', headers)).toBe('value');
    expect(certificates.fromTrustedProxy('10.2.0.1', headers)).toBeUndefined();
    expect(certificates.fromTrustedProxy(undefined, headers)).toBeUndefined();
    expect(certificates.fromTrustedProxy('10.1.2.3', {})).toBeUndefined();
  });

  it("gives a request's certificate only when the request's own peer is a trusted proxy", () => {
    const certificates = ForwardedClientCertificates.of({
      header: 'x-ssl-client-cert',
      proxies: [{ address: '127.0.0.2', prefix: 32, family: 'ipv4' }],
      trustedIssuers: [],
    })!;
    const request = (remoteAddress: string) =>
      ({ socket: { remoteAddress }, headers: { 'x-ssl-client-cert': encodeURIComponent(pem) } }) as unknown as IncomingMessage;
    const fromProxy = request('127.0.0.2');
    expect(certificates.certificateOf(fromProxy, 'test')?.raw.equals(new X509Certificate(pem).raw)).toBe(true);
    expect(certificates.certificateOf(fromProxy, 'test')).toBe(certificates.certificateOf(fromProxy, 'test'));
    const lines: string[] = [];
    const stop = addLogSink((line) => lines.push(line), { capture: true });
    try {
      expect(certificates.certificateOf(request('127.0.0.1'), 'test')).toBeUndefined();
    } finally {
      stop();
    }
    expect(lines.join('')).toContain('not a trusted proxy was ignored');
    expect(ForwardedClientCertificates.of(undefined)).toBeUndefined();
  });
});
