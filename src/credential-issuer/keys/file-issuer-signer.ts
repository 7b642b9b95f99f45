import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CredentialIssuerConfig } from '../../config/credential-issuer-config.js';
import { readCertificates } from '../../common/crypto/certificate-files.js';
import { certificateThumbprint } from './issuer-certificates.js';
import type { IssuerSigner, PublishedIssuerKey } from './issuer-signer.js';

/** Whose files a start-up error names. */
const OWNER = 'credential issuer';

const samePublicKey = (a: X509Certificate, key: ReturnType<typeof createPrivateKey>) =>
  a.publicKey.export({ type: 'spki', format: 'der' }).equals(createPublicKey(key).export({ type: 'spki', format: 'der' }));

const selfSigned = (c: X509Certificate) => c.checkIssued(c) && c.verify(c.publicKey);

/**
 * Production's signer, read once at start from VCI_ISSUER_KEY_FILE and VCI_ISSUER_CERTIFICATE_CHAIN_FILE; every
 * mistake stops the start with its file named: a key that is not P-256, a chain whose first certificate is not the
 * key's, a chain that does not link up, an expired signer. A self-signed last certificate is the root: trusted, not
 * sent in x5c. Rotation in production is the operator's: replace both files and restart (docs/configuration.md).
 */
export function loadFileSigner(config: CredentialIssuerConfig): { signer: IssuerSigner; anchors: Uint8Array[]; previous: PreviousSigner[] } {
  const files = config.signer;
  if (!files) throw new Error('credential issuer: VCI_ISSUER_KEY_FILE and VCI_ISSUER_CERTIFICATE_CHAIN_FILE are required');
  let privateKey;
  try {
    privateKey = createPrivateKey(readFileSync(files.keyFile));
  } catch {
    throw new Error(`credential issuer: VCI_ISSUER_KEY_FILE ${files.keyFile} is not a PEM private key`);
  }
  // HAIP 1.0 §6 / the contract: credentials are signed ES256.
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new Error(`credential issuer: VCI_ISSUER_KEY_FILE ${files.keyFile} must be a P-256 (ES256) key`);
  const ders = readCertificates(files.chainFile, OWNER);
  const certificates = ders.map((der) => new X509Certificate(der));
  if (!certificates.length) throw new Error(`credential issuer: VCI_ISSUER_CERTIFICATE_CHAIN_FILE ${files.chainFile} holds no certificate`);
  if (!samePublicKey(certificates[0], privateKey))
    throw new Error(`credential issuer: the first certificate of ${files.chainFile} is not the certificate of VCI_ISSUER_KEY_FILE`);
  for (let i = 0; i + 1 < certificates.length; i++)
    if (!certificates[i].checkIssued(certificates[i + 1]) || !certificates[i].verify(certificates[i + 1].publicKey))
      throw new Error(`credential issuer: certificate ${i + 1} of ${files.chainFile} is not issued by the next one (leaf first, then its issuers)`);
  const notAfter = new Date(certificates[0].validTo);
  if (notAfter.getTime() <= Date.now()) throw new Error(`credential issuer: the signer certificate of ${files.chainFile} has expired`);
  const last = certificates[certificates.length - 1];
  const rootIncluded = certificates.length > 1 && selfSigned(last);
  const chain = rootIncluded ? ders.slice(0, -1) : ders;
  const anchors = config.anchorPaths.length ? config.anchorPaths.flatMap((path) => readCertificates(path, OWNER)) : [ders[ders.length - 1]];
  return { signer: { privateKey, chain, kid: certificateThumbprint(ders[0]), notAfter }, anchors, previous: previousSigners(config.previousCertificatePaths) };
}

/** A replaced signer's certificate, published (JWT VC Issuer Metadata) until it expires, for the credentials it signed. */
export interface PreviousSigner extends PublishedIssuerKey {
  notAfter: Date;
}

/** VCI_ISSUER_PREVIOUS_CERTIFICATES: every certificate must hold a P-256 key (the credentials are ES256), or the start stops. */
function previousSigners(paths: string[]): PreviousSigner[] {
  return paths.flatMap((path) =>
    readCertificates(path, OWNER).map((der) => {
      const key = new X509Certificate(der).publicKey;
      if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
        throw new Error(`credential issuer: VCI_ISSUER_PREVIOUS_CERTIFICATES ${path} holds a certificate that is not of a P-256 (ES256) key`);
      return { kid: certificateThumbprint(der), chain: [der], notAfter: new Date(new X509Certificate(der).validTo) };
    }),
  );
}
