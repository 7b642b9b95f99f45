// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import { KeyObject, randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as never);

const RSA = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' } as const;

export interface KeyAndCertificate {
  privateKeyPem: string;
  certificatePem: string;
}

/**
 * An RSA 2048 key and a self-signed certificate for it. (Used for the SAML signing key, and for test client certificates.) SAML relying parties of the Shibboleth family
 * trust the key by the certificate in our metadata (pinned), not through a CA, so self-signed is what
 * they expect; the validity is long because a new certificate means every merchant reloads metadata.
 */
export async function newKeyAndCertificate(subject: string, validYears = 10): Promise<KeyAndCertificate> {
  const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const notBefore = new Date(Date.now() - 60_000);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    // Positive 16-byte serial (RFC 5280 §4.1.2.2).
    serialNumber: `01${randomBytes(15).toString('hex')}`,
    name: subject,
    notBefore,
    notAfter: new Date(notBefore.getTime() + validYears * 365.25 * 86400_000),
    keys: keys as never,
    signingAlgorithm: { name: 'RSASSA-PKCS1-v1_5' },
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  });
  return {
    privateKeyPem: KeyObject.from(keys.privateKey).export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificatePem: certificate.toString('pem'),
  };
}
