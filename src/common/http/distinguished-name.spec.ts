import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { parseDistinguishedName, subjectNamed } from './distinguished-name.js';

x509.cryptoProvider.set(webcrypto as never);

/** A self-signed certificate whose subject is `rdns` (DER order: the least specific RDN first). */
async function certificateNamed(rdns: Record<string, string[]>[]): Promise<Uint8Array> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, false, ['sign', 'verify']);
  const name = new x509.Name(rdns);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '01',
    subject: name,
    issuer: name,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: alg,
    publicKey: keys.publicKey as never,
    signingKey: keys.privateKey as never,
  });
  return new Uint8Array(cert.rawData);
}

describe('RFC 8705 §2.1.2 subject DN, compared as a structure', () => {
  it('matches RFC 4514 strings most specific first, types in any case or as OIDs, escaped specials', async () => {
    const der = await certificateNamed([{ C: ['NO'] }, { O: ['Example, Bank'] }, { CN: ['rp.bank.example'] }]);
    for (const dn of [
      'CN=rp.bank.example,O=Example\\, Bank,C=NO',
      'cn=rp.bank.example, o=Example\\2C Bank, c=NO',
      '2.5.4.3=rp.bank.example,2.5.4.10=Example\\, Bank,2.5.4.6=NO',
    ])
      expect([dn, subjectNamed(der, dn)]).toEqual([dn, true]);
    for (const dn of [
      'C=NO,O=Example\\, Bank,CN=rp.bank.example',
      'CN=rp.bank.example',
      'CN=rp.bank.example,O=Example Bank,C=NO',
      'CN=RP.bank.example,O=Example\\, Bank,C=NO',
    ])
      expect([dn, subjectNamed(der, dn)]).toEqual([dn, false]);
  });

  it("a PSD2 certificate's organizationIdentifier by name or OID; a multi-valued RDN in any order of its members", async () => {
    const der = await certificateNamed([{ C: ['NO'] }, { '2.5.4.97': ['PSDNO-FSA-123456'] }, { CN: ['rp.bank.example'], '2.5.4.5': ['42'] }]);
    expect(subjectNamed(der, 'CN=rp.bank.example+serialNumber=42,organizationIdentifier=PSDNO-FSA-123456,C=NO')).toBe(true);
    expect(subjectNamed(der, 'serialNumber=42+CN=rp.bank.example,2.5.4.97=PSDNO-FSA-123456,C=NO')).toBe(true);
    // The members of one RDN are not separate RDNs, nor is one member the RDN.
    expect(subjectNamed(der, 'CN=rp.bank.example,serialNumber=42,2.5.4.97=PSDNO-FSA-123456,C=NO')).toBe(false);
    expect(subjectNamed(der, 'CN=rp.bank.example,2.5.4.97=PSDNO-FSA-123456,C=NO')).toBe(false);
  });

  it('reads non-ASCII values, raw or as escaped UTF-8 bytes', async () => {
    const der = await certificateNamed([{ C: ['NO'] }, { O: ['Bank Ærø'] }]);
    expect(subjectNamed(der, 'O=Bank Ærø,C=NO')).toBe(true);
    expect(subjectNamed(der, 'O=Bank \\C3\\86r\\C3\\B8,C=NO')).toBe(true);
  });

  it('refuses what it cannot read: an unknown type name, a missing =, a hex (#) value, a dangling escape', () => {
    for (const dn of ['FOO=bar,C=NO', 'CN,C=NO', 'CN=#04024869,C=NO', 'CN=trailing\\']) expect([dn, parseDistinguishedName(dn)]).toEqual([dn, undefined]);
    expect(parseDistinguishedName('CN=a+UID=b,DC=example')).toEqual([['0.9.2342.19200300.100.1.1=b', '2.5.4.3=a'], ['0.9.2342.19200300.100.1.25=example']]);
  });
});
