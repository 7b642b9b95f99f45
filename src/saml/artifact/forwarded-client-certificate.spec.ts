import { X509Certificate } from 'node:crypto';
import { ConfigError } from '../../config/app-config.js';
import { loadSamlConfig } from '../../config/saml-config.js';
import { ForwardedClientCertificates, isRegisteredCertificate, parseForwardedCertificate } from './forwarded-client-certificate.js';
import { newKeyAndCertificate } from '../keys/self-signed.js';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadSamlConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
};

describe('SAML client certificate settings', () => {
  it('is off unless both the header and the proxies are set, and names the variable when one is missing', () => {
    expect(loadSamlConfig({})).toEqual({});
    expect(problemsOf({ SAML_CLIENT_CERT_HEADER: 'X-SSL-Client-Cert' })).toEqual([expect.stringMatching(/go together/)]);
    expect(problemsOf({ SAML_CLIENT_CERT_PROXIES: '10.0.0.1' })).toEqual([expect.stringMatching(/go together/)]);
    expect(loadSamlConfig({ SAML_CLIENT_CERT_HEADER: 'X-SSL-Client-Cert', SAML_CLIENT_CERT_PROXIES: '10.0.0.1,fd00::/8' })).toEqual({
      clientCertificate: {
        header: 'x-ssl-client-cert',
        proxies: [
          { address: '10.0.0.1', prefix: 32, family: 'ipv4' },
          { address: 'fd00::', prefix: 8, family: 'ipv6' },
        ],
      },
    });
  });

  it('refuses a range of every address, prefixes out of range, non-addresses and header names with other characters', () => {
    const header = { SAML_CLIENT_CERT_HEADER: 'X-SSL-Client-Cert' };
    expect(problemsOf({ ...header, SAML_CLIENT_CERT_PROXIES: '0.0.0.0/0' })).toEqual([expect.stringMatching(/SAML_CLIENT_CERT_PROXIES: .*trust anyone/)]);
    expect(problemsOf({ ...header, SAML_CLIENT_CERT_PROXIES: '::/0' })).toHaveLength(1);
    expect(problemsOf({ ...header, SAML_CLIENT_CERT_PROXIES: '10.0.0.0/33' })).toHaveLength(1);
    expect(problemsOf({ ...header, SAML_CLIENT_CERT_PROXIES: '10.0.0.300' })).toEqual([expect.stringMatching(/not an IP address/)]);
    expect(problemsOf({ SAML_CLIENT_CERT_HEADER: 'X-Cert: evil', SAML_CLIENT_CERT_PROXIES: '10.0.0.1' })).toEqual([
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
});
