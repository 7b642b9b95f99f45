/**
 * The certificates of customer-test's credential issuer PKI (a root, and signer certificates it issues), on P-256 with
 * @peculiar/x509 over Node's WebCrypto, and the reading of the operator's PEM files in production.
 */
// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import { createHash, KeyObject, webcrypto, X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as never);

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;
/** A positive serial of 96 random bits (RFC 5280 §4.1.2.2: unique per issuer, at most 20 octets). */
const serial = () => Buffer.from(webcrypto.getRandomValues(new Uint8Array(12))).toString('hex').replace(/^[89a-f]/, '1');

export interface KeyAndCertificate {
  der: Uint8Array;
  privateKey: KeyObject;
}

export async function createTestRoot(commonName: string, notAfter: Date): Promise<KeyAndCertificate> {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `C=UT, O=Customer-test, CN=${commonName}`,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter,
    keys: keys as never,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey as never),
    ],
  });
  return { der: new Uint8Array(root.rawData), privateKey: KeyObject.from(keys.privateKey) };
}

export interface SignerCertificateOptions {
  commonName: string;
  /** The issuer identifier's host and URI, in the subjectAltName (SD-JWT VC: the leaf names the `iss` it signs for). */
  dnsName: string;
  uri: string;
  notAfter: Date;
}

export async function createSignerCertificate(root: KeyAndCertificate, options: SignerCertificateOptions): Promise<KeyAndCertificate> {
  const rootCertificate = new x509.X509Certificate(root.der);
  const rootKey = await webcrypto.subtle.importKey('pkcs8', root.privateKey.export({ type: 'pkcs8', format: 'der' }), EC, false, ['sign']);
  const rootPublic = await rootCertificate.publicKey.export();
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const signer = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `C=UT, O=Customer-test, CN=${options.commonName}`,
    issuer: rootCertificate.subject,
    notBefore: new Date(Date.now() - 3_600_000),
    notAfter: options.notAfter,
    publicKey: keys.publicKey as never,
    signingKey: rootKey as never,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.AuthorityKeyIdentifierExtension.create(rootPublic as never),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey as never),
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: options.dnsName },
        { type: 'url', value: options.uri },
      ]),
    ],
  });
  return { der: new Uint8Array(signer.rawData), privateKey: KeyObject.from(keys.privateKey) };
}

/** The kid of a signer: its certificate's SHA-256 thumbprint, base64url (the value of x5t#S256, RFC 7515 §4.1.8). */
export function certificateThumbprint(der: Uint8Array): string {
  return createHash('sha256').update(der).digest('base64url');
}

/** The certificates of a PEM or DER file, or of every file in a folder; a file without one stops the start, named. */
export function readCertificates(path: string): Uint8Array[] {
  if (statSync(path).isDirectory()) return readdirSync(path).sort().flatMap((name) => readCertificates(join(path, name)));
  const bytes = readFileSync(path);
  const text = bytes.toString('latin1');
  try {
    if (!text.includes('-----BEGIN CERTIFICATE-----')) return [new Uint8Array(new X509Certificate(bytes).raw)];
    return [...text.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)].map((m) => new Uint8Array(new X509Certificate(m[0]).raw));
  } catch {
    throw new Error(`credential issuer: ${path} is not a certificate (PEM or DER)`);
  }
}
