import { X509Certificate } from 'node:crypto';
import { WalletCheckError } from '../errors.js';

/** What a verified chain tells the caller: the signer's certificate and the anchor it chains to. */
export interface VerifiedChain {
  leaf: X509Certificate;
  anchor: X509Certificate;
  /** Leaf first, each certificate followed by its issuer, the anchor last (once): what revocation is checked on. */
  path: X509Certificate[];
}

const parse = (der: Uint8Array, what: string): X509Certificate => {
  try {
    return new X509Certificate(der);
  } catch (cause) {
    throw new WalletCheckError('malformed', `${what} is not an X.509 certificate`, { cause });
  }
};

const validAt = (cert: X509Certificate, now: Date): boolean => new Date(cert.validFrom) <= now && now <= new Date(cert.validTo);

/**
 * Verifies an issuer's certificate chain as presented (`x5c` of an SD-JWT VC or a status list token, `x5chain` of an
 * mdoc's IssuerAuth: leaf first, each certificate signed by the next) up to one of `trustAnchors` (DER roots of a trust
 * list: PID providers, IACAs). The last presented certificate may be the anchor itself or be signed by one. Every
 * certificate must be valid at `now`, and every issuer in the chain (anchor included) a CA: a leaf that is a CA, or a
 * CA that is not, does not pass. Node's X509Certificate does the signature checks (native, and no ASN.1 schema decode
 * on this path). Revocation is the caller's next step, asynchronous (CRLs may be fetched): RevocationChecker on `path`.
 */
export function verifyCertificateChain(presented: readonly Uint8Array[], trustAnchors: readonly Uint8Array[], now: Date): VerifiedChain {
  if (presented.length === 0) throw new WalletCheckError('malformed', 'no certificate chain');
  if (presented.length > 5) throw new WalletCheckError('malformed', 'certificate chain longer than 5');
  const chain = presented.map((der, i) => parse(der, `certificate ${i} of the chain`));
  const anchors = trustAnchors.map((der, i) => parse(der, `trust anchor ${i}`));
  for (const [i, cert] of chain.entries()) {
    if (!validAt(cert, now)) throw new WalletCheckError('untrusted_issuer', `certificate ${i} of the chain is not valid at ${now.toISOString()}`);
    const issuer = chain[i + 1];
    if (!issuer) break;
    if (!issuer.ca || !cert.checkIssued(issuer) || !cert.verify(issuer.publicKey)) {
      throw new WalletCheckError('untrusted_issuer', `certificate ${i} of the chain is not signed by certificate ${i + 1}`);
    }
  }
  if (chain[0].ca) throw new WalletCheckError('untrusted_issuer', 'the signing certificate is a CA certificate');
  const last = chain[chain.length - 1];
  for (const anchor of anchors) {
    if (!anchor.ca || !validAt(anchor, now)) continue;
    const isAnchor = last.raw.equals(anchor.raw);
    if (isAnchor || (last.checkIssued(anchor) && last.verify(anchor.publicKey))) return { leaf: chain[0], anchor, path: isAnchor ? chain : [...chain, anchor] };
  }
  throw new WalletCheckError('untrusted_issuer', `the chain of ${chain[0].subject.replace(/\n/g, ', ')} ends at no trusted anchor`);
}
