/**
 * Test CRLs (RFC 5280 §5), for tests only: a test root (an IACA, a PID provider CA) revoking some of the certificates
 * it issued, signed ES256 with @peculiar/x509's X509CrlGenerator.
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { TestCertificate } from './test-pki.js';

export interface IssueTestCrlOptions {
  /** DER of the certificates to list as revoked. */
  revoked?: Uint8Array[];
  thisUpdate?: Date;
  /** Default: a day after thisUpdate; null for a CRL without one (not conforming, RFC 5280 §5.1.2.5). */
  nextUpdate?: Date | null;
  /** Extra extensions (a delta CRL indicator, an issuing distribution point). */
  extensions?: x509.Extension[];
}

export async function issueTestCrl(root: TestCertificate, options: IssueTestCrlOptions = {}): Promise<Uint8Array> {
  const rootCertificate = new x509.X509Certificate(root.der);
  const signingKey = await webcrypto.subtle.importKey(
    'pkcs8',
    root.privateKey.export({ type: 'pkcs8', format: 'der' }),
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign'],
  );
  const thisUpdate = options.thisUpdate ?? new Date(Date.now() - 60_000);
  const nextUpdate = options.nextUpdate === undefined ? new Date(thisUpdate.getTime() + 86_400_000) : options.nextUpdate;
  const crl = await x509.X509CrlGenerator.create(
    {
      issuer: rootCertificate.subject,
      thisUpdate,
      ...(nextUpdate ? { nextUpdate } : {}),
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      signingKey: signingKey as never,
      entries: (options.revoked ?? []).map((der) => ({ serialNumber: new x509.X509Certificate(der).serialNumber, revocationDate: thisUpdate })),
      extensions: options.extensions,
    },
    webcrypto as never,
  );
  return new Uint8Array(crl.rawData);
}
