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
  /** A DNS name for the signer's subjectAltName (the request signer's, for `x509_san_dns`; an issuer's host). */
  dnsName?: string;
  /** A URI for the signer's subjectAltName: an SD-JWT VC issuer's `iss` (issueSdJwtVc takes it as its default iss). */
  uri?: string;
  /** CRL Distribution Points of the signer's certificate (the Document Signer's, ISO/IEC 18013-5 Annex B). */
  crlUrls?: string[];
  /** Issue the signer under this root instead of a new one (a second signer of one CA, a CRL signed by the root). */
  root?: TestCertificate;
  notBefore?: Date;
  notAfter?: Date;
  /** The signer as a CA too (for tests of a chain that must refuse it). */
  signerIsCa?: boolean;
}

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;
const serial = () =>
  Buffer.from(webcrypto.getRandomValues(new Uint8Array(12)))
    .toString('hex')
    .replace(/^[89a-f]/, '1');
const der = (cert: x509.X509Certificate) => new Uint8Array(cert.rawData);

/** A certificate and its private key, as stored (DER, and a Node KeyObject). */
export interface TestCertificate {
  der: Uint8Array;
  privateKey: KeyObject;
}

export interface TestNameOptions {
  commonName: string;
  organisation?: string;
  country?: string;
  notBefore: Date;
  notAfter: Date;
  /** CRL Distribution Points (RFC 5280 §4.2.1.13): http(s) addresses of the issuing CA's CRL. */
  crlUrls?: string[];
  /** A root's basicConstraints pathLenConstraint; default 0 (no intermediate CA below it). */
  pathLength?: number;
}

const nameOf = (o: TestNameOptions) => `C=${o.country ?? 'UT'}, O=${o.organisation ?? 'Test'}, CN=${o.commonName}`;

/** A self-signed P-256 root CA (basicConstraints CA with path length 0, keyCertSign and cRLSign). */
export async function createTestRoot(options: TestNameOptions): Promise<TestCertificate> {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: nameOf(options),
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    keys: keys as never,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(true, options.pathLength ?? 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey as never),
      ...(options.crlUrls ? [new x509.CRLDistributionPointsExtension(options.crlUrls)] : []),
    ],
  });
  return { der: der(root), privateKey: KeyObject.from(keys.privateKey) };
}

export interface TestLeafOptions extends TestNameOptions {
  /** subjectAltName entries: a DNS name (x509_san_dns, an issuer's host) and a URI (an issuer identifier). */
  dnsName?: string;
  uri?: string;
  /** The leaf as a CA too (for tests of a chain that must refuse it). */
  isCa?: boolean;
}

/** A P-256 signer certificate issued by `root` (a stored root: its DER and private key). */
export async function issueTestLeaf(root: TestCertificate, options: TestLeafOptions): Promise<TestCertificate & { publicKey: KeyObject }> {
  const rootCertificate = new x509.X509Certificate(root.der);
  const rootKey = await webcrypto.subtle.importKey('pkcs8', root.privateKey.export({ type: 'pkcs8', format: 'der' }), EC, false, ['sign']);
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const altNames = [
    ...(options.dnsName ? [{ type: 'dns' as const, value: options.dnsName }] : []),
    ...(options.uri ? [{ type: 'url' as const, value: options.uri }] : []),
  ];
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: nameOf(options),
    issuer: rootCertificate.subject,
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    publicKey: keys.publicKey as never,
    signingKey: rootKey as never,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(options.isCa ?? false, undefined, true),
      // OpenSSL (Node's X509Certificate.ca) counts a certificate as a CA only with keyCertSign among its key usages.
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | (options.isCa ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign : 0), true),
      await x509.AuthorityKeyIdentifierExtension.create((await rootCertificate.publicKey.export()) as never),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey as never),
      ...(altNames.length ? [new x509.SubjectAlternativeNameExtension(altNames)] : []),
      ...(options.crlUrls ? [new x509.CRLDistributionPointsExtension(options.crlUrls)] : []),
    ],
  });
  return { der: der(leaf), privateKey: KeyObject.from(keys.privateKey), publicKey: KeyObject.from(keys.publicKey) };
}

/** A root and one signer under it, for the wallet scheme's three test roles. */
export async function createTestSigner(options: TestPkiOptions): Promise<TestSigner> {
  const notBefore = options.notBefore ?? new Date(Date.now() - 86_400_000);
  const notAfter = options.notAfter ?? new Date(notBefore.getTime() + 3 * 365 * 86_400_000);
  const dates = { country: options.country, notBefore, notAfter };
  const root = options.root ?? (await createTestRoot({ ...dates, commonName: options.rootName }));
  const signer = await issueTestLeaf(root, {
    ...dates,
    commonName: options.signerName,
    dnsName: options.dnsName,
    uri: options.uri,
    crlUrls: options.crlUrls,
    isCa: options.signerIsCa,
  });
  return { chain: [signer.der, root.der], root: root.der, privateKey: signer.privateKey, publicKey: signer.publicKey };
}
