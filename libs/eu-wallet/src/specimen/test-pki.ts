/**
 * Test PKI of the wallet scheme, for tests and customer-test only (never trusted in production): a root CA and a
 * signer it issues, on P-256, generated with @peculiar/x509 on Node's WebCrypto. The same shape serves the three
 * roles the scheme needs: a PID provider (root, and the signer of SD-JWT VCs and status lists), an IACA (ISO 18013-5
 * Annex B: root, and the Document Signer of mdocs), and the service's own request signer (HAIP 1.0 asks that the
 * request-signing certificate not be self-signed).
 */
// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import { KeyObject, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as never);

export interface TestSigner {
  /** DER of the signer's certificate, then of the root's: the chain as x5c / x5chain carry it. */
  chain: [Uint8Array, Uint8Array];
  root: Uint8Array;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface TestPkiOptions {
  /** The root's common name, and the signer's (say "Test PID Provider", "Test IACA", "Test request signer"). */
  rootName: string;
  signerName: string;
  country?: string;
  /** A DNS name for the signer's subjectAltName (the request signer's, for `x509_san_dns`). */
  dnsName?: string;
  notBefore?: Date;
  notAfter?: Date;
  /** The signer as a CA too (for tests of a chain that must refuse it). */
  signerIsCa?: boolean;
}

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;
const serial = () => Buffer.from(webcrypto.getRandomValues(new Uint8Array(12))).toString('hex').replace(/^[89a-f]/, '1');
const der = (cert: x509.X509Certificate) => new Uint8Array(cert.rawData);

export async function createTestSigner(options: TestPkiOptions): Promise<TestSigner> {
  const country = options.country ?? 'UT';
  const notBefore = options.notBefore ?? new Date(Date.now() - 86_400_000);
  const notAfter = options.notAfter ?? new Date(notBefore.getTime() + 3 * 365 * 86_400_000);
  const rootKeys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const signerKeys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `C=${country}, O=Test, CN=${options.rootName}`,
    notBefore,
    notAfter,
    keys: rootKeys as never,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey as never),
    ],
  });
  const signer = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `C=${country}, O=Test, CN=${options.signerName}`,
    issuer: root.subject,
    notBefore,
    notAfter,
    publicKey: signerKeys.publicKey as never,
    signingKey: rootKeys.privateKey as never,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(options.signerIsCa ?? false, undefined, true),
      // OpenSSL (Node's X509Certificate.ca) counts a certificate as a CA only with keyCertSign among its key usages.
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | (options.signerIsCa ? x509.KeyUsageFlags.keyCertSign : 0), true),
      await x509.AuthorityKeyIdentifierExtension.create(rootKeys.publicKey as never),
      ...(options.dnsName ? [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: options.dnsName }])] : []),
    ],
  });
  return {
    chain: [der(signer), der(root)],
    root: der(root),
    privateKey: KeyObject.from(signerKeys.privateKey),
    publicKey: KeyObject.from(signerKeys.publicKey),
  };
}
