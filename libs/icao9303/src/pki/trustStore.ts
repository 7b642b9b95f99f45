/**
 * Trust anchors for passive authentication: CSCA certificates (ICAO 9303-12 §7.1.1), optionally loaded from
 * verified master lists, plus untrusted link certificates usable as path intermediates (9303-12 §7.1.1.2)
 * and CRLs (9303-12 §7.1.4).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Icao9303Error, guard } from '../errors.js';
import { DocumentCertificate } from './certificate.js';
import { CertificateRevocationList } from './crl.js';
import { loadMasterList, type MasterListReport } from './masterList.js';

export class TrustStore {
  private readonly anchors = new Map<string, DocumentCertificate>();
  private readonly intermediates = new Map<string, DocumentCertificate>();
  private readonly crls: CertificateRevocationList[] = [];

  /** Adds trusted CSCA certificates (DER or PEM bytes, or parsed). Returns the certificates added. */
  addCsca(input: Uint8Array | DocumentCertificate): DocumentCertificate[] {
    const certs = input instanceof DocumentCertificate ? [input] : DocumentCertificate.parseAll(input, 'CSCA');
    for (const c of certs) this.anchors.set(c.fingerprint, c);
    return certs;
  }

  /** Adds a link (or other intermediate) certificate: usable in a path but not trusted by itself. */
  addLinkCertificate(input: Uint8Array | DocumentCertificate): void {
    const certs = input instanceof DocumentCertificate ? [input] : DocumentCertificate.parseAll(input, 'link certificate');
    for (const c of certs) this.intermediates.set(c.fingerprint, c);
  }

  /** Reads a certificate file, or every *.cer/*.crt/*.der/*.pem file of a folder. */
  addCscaPath(path: string): DocumentCertificate[] {
    return guard('INVALID_ARGUMENT', path, () => {
      if (statSync(path).isDirectory()) {
        return readdirSync(path)
          .filter((f) => /\.(cer|crt|der|pem)$/i.test(f))
          .sort()
          .flatMap((f) => this.addCsca(new Uint8Array(readFileSync(join(path, f)))));
      }
      return this.addCsca(new Uint8Array(readFileSync(path)));
    });
  }

  /** Verifies a master list against `anchors` (the list signer's CSCA) and trusts every certificate in it. */
  addMasterList(bytes: Uint8Array, anchors: Array<Uint8Array | DocumentCertificate>, at?: Date): MasterListReport {
    const anchorCerts = anchors.flatMap((a) => (a instanceof DocumentCertificate ? [a] : DocumentCertificate.parseAll(a, 'master list anchor')));
    const report = loadMasterList(bytes, { anchors: anchorCerts, at });
    for (const c of report.certificates) this.anchors.set(c.fingerprint, c);
    return report;
  }

  /** Adds a CRL after checking it is signed by a trusted CSCA with the CRL's issuer name. */
  addCrl(bytes: Uint8Array): CertificateRevocationList {
    const crl = CertificateRevocationList.fromDer(bytes);
    const signer = [...this.anchors.values()].find((a) => a.subjectDerEquals(crl.issuerDer) && crl.verifiedBy(a));
    if (!signer) throw new Icao9303Error('CRL_MALFORMED', 'CRL.signature', 'no trusted CSCA with the CRL issuer name verifies the CRL signature (9303-12 §7.1.4)');
    this.crls.push(crl);
    return crl;
  }

  remove(predicate: (c: DocumentCertificate) => boolean): number {
    let n = 0;
    for (const [k, c] of this.anchors) if (predicate(c)) { this.anchors.delete(k); n++; }
    return n;
  }

  isTrusted(c: DocumentCertificate): boolean {
    return this.anchors.has(c.fingerprint);
  }

  /** Candidate issuers of `cert` among anchors and intermediates, matched by name and key identifier. */
  issuersOf(cert: DocumentCertificate): DocumentCertificate[] {
    const name = cert.issuer.toLowerCase();
    return [...this.anchors.values(), ...this.intermediates.values()].filter((c) => c.fingerprint !== cert.fingerprint && c.subjectKey === name && cert.signedBy(c));
  }

  crlsFor(cert: DocumentCertificate): CertificateRevocationList[] {
    return this.crls.filter((c) => cert.issuerDerEquals(c.issuerDer));
  }

  get size(): number {
    return this.anchors.size;
  }

  certificates(): DocumentCertificate[] {
    return [...this.anchors.values()];
  }
}
