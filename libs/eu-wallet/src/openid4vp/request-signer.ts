import { X509Certificate, createPublicKey, type KeyObject } from 'node:crypto';

/**
 * The `x5c` of the service's request objects, checked before anything is signed. HAIP 1.0 §5: the trust anchor's
 * certificate MUST NOT be in `x5c`, and the certificate signing the request MUST NOT be self-signed. OpenID4VP 1.0
 * §5.9.3: the request is signed with the key of the leaf certificate, first in `x5c`. The checks here catch a
 * misconfigured deployment (root in the chain, wrong key, expired certificate) before a wallet refuses it.
 */
export interface RequestSigner {
  /** DER certificates, leaf first; a self-signed root at the end is dropped (it is the wallet's trust anchor). */
  chain: Uint8Array[];
  privateKey: KeyObject;
}

const selfSigned = (cert: X509Certificate) => cert.subject === cert.issuer && cert.checkIssued(cert) && cert.verify(cert.publicKey);

/** Base64 (not base64url, RFC 7515 §4.1.6) DER of the chain to send, without the anchor. Throws TypeError on misuse. */
export function requestSignerX5c(signer: RequestSigner, now: Date): string[] {
  if (signer.chain.length === 0) throw new TypeError('request signer: empty certificate chain');
  const certs = signer.chain.map((der) => new X509Certificate(der));
  for (let i = 0; i + 1 < certs.length; i++) {
    if (!certs[i].checkIssued(certs[i + 1]) || !certs[i].verify(certs[i + 1].publicKey)) {
      throw new TypeError(`request signer: certificate ${i} is not issued by certificate ${i + 1}`);
    }
  }
  if (certs.length > 1 && selfSigned(certs[certs.length - 1])) certs.pop();
  const [leaf] = certs;
  if (selfSigned(leaf)) throw new TypeError('request signer: the leaf certificate is self-signed (HAIP 1.0 §5 forbids it)');
  if (now < new Date(leaf.validFrom) || now > new Date(leaf.validTo)) {
    throw new TypeError(`request signer: the leaf certificate is not valid at ${now.toISOString()}`);
  }
  const mine = createPublicKey(signer.privateKey).export({ format: 'jwk' });
  const its = leaf.publicKey.export({ format: 'jwk' });
  if (mine.crv !== 'P-256' || mine.x !== its.x || mine.y !== its.y) {
    throw new TypeError('request signer: the private key is not the P-256 key of the leaf certificate');
  }
  return certs.map((cert) => cert.raw.toString('base64'));
}

/** The leaf's DNS subjectAltNames match `dnsName` (for `x509_san_dns`, OpenID4VP 1.0 §5.9.3); CN is not consulted. */
export function leafHasDnsName(leafDer: Uint8Array, dnsName: string): boolean {
  return new X509Certificate(leafDer).checkHost(dnsName, { subject: 'never', wildcards: false }) !== undefined;
}
