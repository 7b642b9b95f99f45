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
import { bytesEqual } from '../util/bytes.js';

export class TrustStore {
  private readonly anchors = new Map<string, DocumentCertificate>();
  private readonly intermediates = new Map<string, DocumentCertificate>();
  private readonly crls: CertificateRevocationList[] = [];
  /** the trusted CSCA that verified each CRL, in the order the CRLs were added */
  private readonly crlSigners = new Map<CertificateRevocationList, DocumentCertificate>();
  /** anchors by lower-cased subject (`subjectKey`), in insertion order */
  private readonly anchorsByName = new Map<string, DocumentCertificate[]>();

  private addAnchor(c: DocumentCertificate): void {
    if (this.anchors.has(c.fingerprint)) return;
    this.anchors.set(c.fingerprint, c);
    this.anchorsByName.set(c.subjectKey, [...(this.anchorsByName.get(c.subjectKey) ?? []), c]);
  }

  /** Adds trusted CSCA certificates (DER or PEM bytes, or parsed). Returns the certificates added. */
  addCsca(input: Uint8Array | DocumentCertificate): DocumentCertificate[] {
    const certs = input instanceof DocumentCertificate ? [input] : DocumentCertificate.parseAll(input, 'CSCA');
    for (const c of certs) this.addAnchor(c);
    return certs;
  }

  /** Adds a link (or other intermediate) certificate: usable in a path but not trusted by itself. */
  addLinkCertificate(input: Uint8Array | DocumentCertificate): void {
    const certs = input instanceof DocumentCertificate ? [input] : DocumentCertificate.parseAll(input, 'link certificate');
    for (const c of certs) this.intermediates.set(c.fingerprint, c);
  }

  /** Reads a certificate file, or every *.cer/*.crt/*.der/*.pem file of a folder. */
  addCscaPath(path: string): DocumentCertificate[] {
    return guard('INVALID_ARGUMENT', path, () => TrustStore.certificateFiles(path).flatMap((f) => this.addCsca(new Uint8Array(readFileSync(f)))));
  }

  /** The files addCscaPath reads for `path`: the file itself, or a folder's *.cer/*.crt/*.der/*.pem files in name order. */
  static certificateFiles(path: string): string[] {
    if (!statSync(path).isDirectory()) return [path];
    return readdirSync(path)
      .filter((f) => /\.(cer|crt|der|pem)$/i.test(f))
      .sort()
      .map((f) => join(path, f));
  }

  /** Verifies a master list against `anchors` (the list signer's CSCA) and trusts every certificate in it. */
  addMasterList(bytes: Uint8Array, anchors: Array<Uint8Array | DocumentCertificate>, at?: Date): MasterListReport {
    const anchorCerts = anchors.flatMap((a) => (a instanceof DocumentCertificate ? [a] : DocumentCertificate.parseAll(a, 'master list anchor')));
    const report = loadMasterList(bytes, { anchors: anchorCerts, at });
    for (const c of report.certificates) this.addAnchor(c);
    return report;
  }

  /** Adds a CRL after checking it is signed by a trusted CSCA with the CRL's issuer name. */
  addCrl(bytes: Uint8Array): CertificateRevocationList {
    const crl = CertificateRevocationList.fromDer(bytes);
    const signer = [...this.anchors.values()].find((a) => a.subjectDerEquals(crl.issuerDer) && crl.verifiedBy(a));
    if (!signer)
      throw new Icao9303Error('CRL_MALFORMED', 'CRL.signature', 'no trusted CSCA with the CRL issuer name verifies the CRL signature (9303-12 §7.1.4)');
    this.crls.push(crl);
    this.crlSigners.set(crl, signer);
    return crl;
  }

  remove(predicate: (c: DocumentCertificate) => boolean): number {
    let n = 0;
    for (const [k, c] of this.anchors)
      if (predicate(c)) {
        this.anchors.delete(k);
        n++;
      }
    for (const [name, list] of this.anchorsByName) {
      const kept = list.filter((c) => this.anchors.has(c.fingerprint));
      if (kept.length) this.anchorsByName.set(name, kept);
      else this.anchorsByName.delete(name);
    }
    return n;
  }

  isTrusted(c: DocumentCertificate): boolean {
    return this.anchors.has(c.fingerprint);
  }

  /**
   * Issuers of `cert` among anchors and intermediates: same subject name (RFC 5280 §6.1.3 (a)(4)) and a
   * signature that verifies with their key (§6.1.3 (a)(1)). Looked up on the precomputed subject key, the
   * candidate whose subject key identifier equals the certificate's authority key identifier first
   * (RFC 5280 §4.2.1.1; CSCA rollovers keep the name): signatures are checked lazily, one per candidate
   * the path search actually tries, not for the whole store.
   */
  *issuersOf(cert: DocumentCertificate): Generator<DocumentCertificate> {
    const named = [
      ...(this.anchorsByName.get(cert.issuer.toLowerCase()) ?? []),
      ...[...this.intermediates.values()].filter((c) => c.subjectKey === cert.issuer.toLowerCase()),
    ];
    const aki = named.length > 1 ? keyId(() => cert.authorityKeyIdentifier) : undefined;
    const skiMatches = (c: DocumentCertificate) => {
      const ski = aki && keyId(() => c.subjectKeyIdentifier);
      return !!ski && bytesEqual(aki, ski);
    };
    const ordered = aki ? [...named.filter(skiMatches), ...named.filter((c) => !skiMatches(c))] : named;
    for (const c of ordered) if (c.fingerprint !== cert.fingerprint && cert.signedBy(c)) yield c;
  }

  crlsFor(cert: DocumentCertificate): CertificateRevocationList[] {
    return this.crls.filter((c) => cert.issuerDerEquals(c.issuerDer));
  }

  /** Every loaded CRL with the trusted CSCA that verified its signature. */
  revocationLists(): Array<{ crl: CertificateRevocationList; signer: DocumentCertificate }> {
    return this.crls.map((crl) => ({ crl, signer: this.crlSigners.get(crl)! }));
  }

  get size(): number {
    return this.anchors.size;
  }

  certificates(): DocumentCertificate[] {
    return [...this.anchors.values()];
  }
}

/** Key identifiers only order the candidates: an unreadable one is no identifier, not an error. */
function keyId(read: () => Uint8Array | undefined): Uint8Array | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
