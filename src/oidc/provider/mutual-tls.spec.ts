import { X509Certificate } from 'node:crypto';
import { createTestRoot, issueTestLeaf } from '@identity-broker/eu-wallet';
import { newKeyAndCertificate } from '../../common/keys/self-signed.js';
import { isIssuedBy, subjectMatches } from './mutual-tls.js';

describe('RFC 8705 §2.1 certificate checks of the engine (the certificate the proxy passed on)', () => {
  const now = Date.now();
  const dates = { notBefore: new Date(now - 60_000), notAfter: new Date(now + 86_400_000) };
  let ca: X509Certificate;
  let leaf: X509Certificate;
  let otherCa: X509Certificate;

  beforeAll(async () => {
    const root = await createTestRoot({ ...dates, commonName: 'Client CA', country: 'NO' });
    ca = new X509Certificate(root.der);
    leaf = new X509Certificate(
      (
        await issueTestLeaf(root, {
          ...dates,
          commonName: 'rp.bank.example',
          organisation: 'Example\\, Bank',
          country: 'NO',
          dnsName: 'rp.bank.example',
          uri: 'https://bank.example/rp',
        })
      ).der,
    );
    otherCa = new X509Certificate((await createTestRoot({ ...dates, commonName: 'Client CA', country: 'NO' })).der);
  });

  it('§2.1 PKI: a certificate issued by a listed CA and valid now; not by another CA of the same name, nor a self-signed one, nor once expired', async () => {
    expect(isIssuedBy(leaf, ca)).toBe(true);
    expect(isIssuedBy(leaf, otherCa)).toBe(false);
    const selfSigned = new X509Certificate((await newKeyAndCertificate('CN=rp.bank.example', 1)).certificatePem);
    expect(isIssuedBy(selfSigned, ca)).toBe(false);
    expect(isIssuedBy(leaf, ca, new Date(now + 2 * 86_400_000))).toBe(false);
  });

  it('§2.1.2: the subject DN as RFC 4514 writes it (escaped commas, attribute types in any case), and SAN entries exactly', () => {
    expect(subjectMatches(leaf, 'tls_client_auth_subject_dn', 'CN=rp.bank.example,O=Example\\, Bank,C=NO')).toBe(true);
    expect(subjectMatches(leaf, 'tls_client_auth_subject_dn', 'cn=rp.bank.example, o=Example\\, Bank, c=NO')).toBe(true);
    expect(subjectMatches(leaf, 'tls_client_auth_subject_dn', 'C=NO,O=Example\\, Bank,CN=rp.bank.example')).toBe(false);
    expect(subjectMatches(leaf, 'tls_client_auth_subject_dn', 'CN=rp.bank.example')).toBe(false);
    expect(subjectMatches(leaf, 'tls_client_auth_san_dns', 'rp.bank.example')).toBe(true);
    expect(subjectMatches(leaf, 'tls_client_auth_san_dns', 'bank.example')).toBe(false);
    expect(subjectMatches(leaf, 'tls_client_auth_san_uri', 'https://bank.example/rp')).toBe(true);
    expect(subjectMatches(leaf, 'tls_client_auth_san_email', 'rp@bank.example')).toBe(false);
    expect(subjectMatches(leaf, 'tls_client_auth_san_ip', '127.0.0.1')).toBe(false);
  });
});
