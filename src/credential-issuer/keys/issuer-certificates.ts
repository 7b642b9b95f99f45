/**
 * The certificates of customer-test's credential issuer PKI (a root, and signer certificates it issues), on P-256 with
 * the wallet library's test PKI (libs/eu-wallet, specimen/test-pki.ts).
 */
import { createHash } from 'node:crypto';
import { createTestRoot as createTestRootCertificate, issueTestLeaf, type TestCertificate } from '@identity-broker/eu-wallet';

/** A certificate and its private key (DER, and a Node KeyObject). */
export type KeyAndCertificate = TestCertificate;

/** customer-test's issuer root (self-signed, valid from a day back). */
export function createTestRoot(commonName: string, notAfter: Date): Promise<KeyAndCertificate> {
  return createTestRootCertificate({ commonName, organisation: 'Customer-test', notBefore: new Date(Date.now() - 86_400_000), notAfter });
}

export interface SignerCertificateOptions {
  commonName: string;
  /** The issuer identifier's host and URI, in the subjectAltName (SD-JWT VC: the leaf names the `iss` it signs for). */
  dnsName: string;
  uri: string;
  notAfter: Date;
}

/** A signer certificate under customer-test's issuer root (valid from an hour back). */
export async function createSignerCertificate(root: KeyAndCertificate, options: SignerCertificateOptions): Promise<KeyAndCertificate> {
  const { der, privateKey } = await issueTestLeaf(root, { ...options, organisation: 'Customer-test', notBefore: new Date(Date.now() - 3_600_000) });
  return { der, privateKey };
}

/** The kid of a signer: its certificate's SHA-256 thumbprint, base64url (the value of x5t#S256, RFC 7515 §4.1.8). */
export function certificateThumbprint(der: Uint8Array): string {
  return createHash('sha256').update(der).digest('base64url');
}
