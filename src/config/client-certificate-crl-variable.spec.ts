import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestRoot, issueTestCrl } from '@identity-broker/eu-wallet';
import { ConfigError } from './app-config.js';
import { loadClientCertificateConfig } from './client-certificate-config.js';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadClientCertificateConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
};

describe('CLIENT_CERT_CRL_FILE (the CRLs of the tls_client_auth CAs)', () => {
  let dir: string;
  let proxy: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'client-crl-config-'));
    const ca = await createTestRoot({ notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 86_400_000), commonName: 'Client CA' });
    writeFileSync(join(dir, 'ca.pem'), new X509Certificate(ca.der).toString());
    writeFileSync(join(dir, 'crl.der'), await issueTestCrl(ca));
    writeFileSync(join(dir, 'empty.pem'), 'no CRL here');
    proxy = { CLIENT_CERT_HEADER: 'X-SSL-Client-Cert', CLIENT_CERT_PROXIES: '10.0.0.1', CLIENT_CERT_CA_FILE: join(dir, 'ca.pem') };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is read with the CAs, as an absolute path; unset or empty, no revocation is checked', () => {
    expect(loadClientCertificateConfig({ ...proxy, CLIENT_CERT_CRL_FILE: join(dir, 'crl.der') })?.crlFile).toBe(join(dir, 'crl.der'));
    expect(loadClientCertificateConfig({ ...proxy, CLIENT_CERT_CRL_FILE: '' })?.crlFile).toBeUndefined();
    expect(loadClientCertificateConfig(proxy)?.crlFile).toBeUndefined();
  });

  it('needs CLIENT_CERT_CA_FILE, whose CAs the CRLs are of', () => {
    const { CLIENT_CERT_CA_FILE: _ca, ...withoutCa } = proxy;
    expect(problemsOf({ ...withoutCa, CLIENT_CERT_CRL_FILE: join(dir, 'crl.der') })).toEqual([
      'CLIENT_CERT_CRL_FILE: needs CLIENT_CERT_CA_FILE (the CRLs are those of its CAs)',
    ]);
    expect(problemsOf({ CLIENT_CERT_CRL_FILE: join(dir, 'crl.der') })).toEqual([expect.stringMatching(/^CLIENT_CERT_CRL_FILE: needs CLIENT_CERT_CA_FILE/)]);
  });

  it('refuses a file that cannot be read or holds no CRL, naming it', () => {
    expect(problemsOf({ ...proxy, CLIENT_CERT_CRL_FILE: join(dir, 'missing.crl') })).toEqual([
      `CLIENT_CERT_CRL_FILE: no readable file at ${join(dir, 'missing.crl')}`,
    ]);
    expect(problemsOf({ ...proxy, CLIENT_CERT_CRL_FILE: join(dir, 'empty.pem') })).toEqual([
      expect.stringMatching(new RegExp(`^CLIENT_CERT_CRL_FILE: ${join(dir, 'empty.pem')} holds no CRL`)),
    ]);
    expect(problemsOf({ ...proxy, CLIENT_CERT_CRL_FILE: dir })).toEqual([`CLIENT_CERT_CRL_FILE: no readable file at ${dir}`]);
  });
});
