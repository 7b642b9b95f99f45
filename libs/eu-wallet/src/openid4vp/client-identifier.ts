import { createHash } from 'node:crypto';

/**
 * Client Identifiers with a prefix (OpenID4VP 1.0 §5.9). The service signs its request objects with an X.509
 * certificate; HAIP 1.0 §5 makes `x509_hash` the prefix Verifiers use for signed requests, `x509_san_dns` is kept
 * for wallets of deployments that still expect it.
 */

/**
 * `x509_hash:` + base64url(SHA-256(DER of the leaf certificate)) (OpenID4VP 1.0 §5.9.3). The leaf is the certificate
 * whose key signs the request object, first in its `x5c`.
 */
export function x509HashClientId(leafDer: Uint8Array): string {
  return `x509_hash:${createHash('sha256').update(leafDer).digest('base64url')}`;
}

/**
 * `x509_san_dns:` + a DNS name (OpenID4VP 1.0 §5.9.3): the name must be a dNSName subjectAltName of the leaf
 * certificate (createRequestObject checks that), and the wallet may require response_uri's host to be that name.
 */
export function x509SanDnsClientId(dnsName: string): string {
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(dnsName)) {
    throw new TypeError(`not a DNS name: ${JSON.stringify(dnsName)}`);
  }
  return `x509_san_dns:${dnsName.toLowerCase()}`;
}
