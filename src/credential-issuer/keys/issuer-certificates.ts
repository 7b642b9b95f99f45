/**
 * The certificates of customer-test's credential issuer PKI (a root, and signer certificates it issues), on P-256 with
 * the wallet library's test PKI (libs/eu-wallet, specimen/test-pki.ts), and the reading of the operator's PEM files in production.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  createTestRoot as createTestRootCertificate,
  issueTestLeaf,
  type TestCertificate,
} from '@identity-broker/eu-wallet';

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
