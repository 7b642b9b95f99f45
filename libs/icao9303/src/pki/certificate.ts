/**
 * X.509 certificate value object for eMRTD PKI (ICAO 9303-12 §7). Node's X509Certificate (native, fast)
 * gives names, validity and signature checks — and, unlike OpenSSL's chain verifier, accepts the explicit
 * EC parameters used by many CSCA/DS keys. Extensions are read with @peculiar/asn1-x509 on demand.
 */
import { X509Certificate, createHash } from 'node:crypto';
import { AuthorityKeyIdentifier, BasicConstraints, Certificate, KeyUsage, SubjectKeyIdentifier } from '@peculiar/asn1-x509';
import { AsnParser } from '@peculiar/asn1-schema';
import { Icao9303Error } from '../errors.js';
import { decode, encode } from '../asn1/der.js';
import { OID } from '../asn1/oids.js';
import { bytesEqual, toBuffer, toHex } from '../util/bytes.js';
import { publicKeyFromCertificate, publicKeyFromSpki, type PublicKeyInfo } from '../crypto/publicKey.js';
import { readTlv } from '../util/tlv.js';
import { certificateFields, type CertificateFields } from './certificateFields.js';
import { canonicalLengths } from '../asn1/derReader.js';
import { resolveSignatureAlgorithm, verifyWith } from '../crypto/verifySignature.js';

export interface CertificateSummary {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  sha256: string;
}

export class DocumentCertificate {
  readonly subject: string;
  readonly issuer: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly fingerprint: string;
  /** lower-cased subject, the key used to look up issuers */
  readonly subjectKey: string;
  private asnCache?: Certificate;
  private keyInfo?: PublicKeyInfo;
  private fieldsCache?: CertificateFields | null;
  /** signature check results by issuer fingerprint */
  private readonly issuerChecks = new Map<string, boolean>();

  private constructor(
    readonly der: Uint8Array,
    readonly node: X509Certificate,
  ) {
    this.subject = node.subject.replace(/\n/g, ', ');
    this.issuer = node.issuer.replace(/\n/g, ', ');
    this.subjectKey = this.subject.toLowerCase();
    this.notBefore = new Date(node.validFrom);
    this.notAfter = new Date(node.validTo);
    this.fingerprint = createHash('sha256').update(der).digest('hex');
    if (Number.isNaN(this.notBefore.getTime()) || Number.isNaN(this.notAfter.getTime())) {
      throw new Icao9303Error('CERTIFICATE_MALFORMED', this.subject, 'unreadable validity period (RFC 5280 §4.1.2.5)');
    }
  }

  static fromDer(input: Uint8Array, field = 'certificate'): DocumentCertificate {
    const outer = readTlv(input, 0, field);
    if (outer.tag !== 0x30 || outer.end !== input.length) throw new Icao9303Error('CERTIFICATE_MALFORMED', field, 'not a single DER SEQUENCE');
    // our own copy: the lazily read fields and the remembered signature checks must not see later changes to the caller's buffer
    const der = input.slice();
    try {
      return new DocumentCertificate(der, new X509Certificate(toBuffer(der)));
    } catch (e) {
      throw new Icao9303Error('CERTIFICATE_MALFORMED', field, (e as Error).message, { cause: e });
    }
  }

  /**
   * A Document Signer certificate embedded in a SOD. One DS signs the documents of months of issuance, so the
   * recently seen ones are kept (bounded, keyed by the SHA-256 of the whole DER): the certificate decode, the
   * key import and the CSCA signature check over the same bytes are done once per DS, not once per document.
   */
  static fromSod(der: Uint8Array, field = 'certificate'): DocumentCertificate {
    const key = createHash('sha256').update(der).digest('hex');
    const hit = recentSigners.get(key);
    if (hit) {
      recentSigners.delete(key); // least recently used goes first
      recentSigners.set(key, hit);
      return hit;
    }
    const cert = DocumentCertificate.fromDer(der, field);
    recentSigners.set(key, cert);
    if (recentSigners.size > RECENT_SIGNERS) recentSigners.delete(recentSigners.keys().next().value!);
    return cert;
  }

  /** Forgets the remembered Document Signer certificates (benchmarks of a first-seen DS; tests). */
  static clearSignerCache(): void {
    recentSigners.clear();
  }

  /** Accepts DER or PEM (one or more certificates). */
  static parseAll(bytes: Uint8Array, field = 'certificate'): DocumentCertificate[] {
    const text = Buffer.from(bytes).toString('latin1');
    if (text.includes('-----BEGIN CERTIFICATE-----')) {
      const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
      return blocks.map((b, i) => DocumentCertificate.fromDer(new Uint8Array(Buffer.from(b.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64')), `${field}[${i}]`));
    }
    return [DocumentCertificate.fromDer(bytes, field)];
  }

  get asn(): Certificate {
    this.asnCache ??= decode(this.der, Certificate, 'CERTIFICATE_MALFORMED', this.subject);
    return this.asnCache;
  }

  /**
   * The fields passive authentication needs, sliced from the received DER in one pass (null when our reader
   * refuses the encoding; then the schema decode through `asn` answers, as before).
   */
  private get fields(): CertificateFields | null {
    if (this.fieldsCache === undefined) {
      try {
        this.fieldsCache = certificateFields(this.der);
      } catch (e) {
        if (!(e instanceof Icao9303Error)) throw e;
        this.fieldsCache = null;
      }
    }
    return this.fieldsCache;
  }

  /** INTEGER content octets (two's complement, leading zero stripped); some CSCAs use negative serials */
  get serialNumber(): Uint8Array {
    return stripLeadingZero(this.fields?.serialNumber ?? new Uint8Array(this.asn.tbsCertificate.serialNumber));
  }

  /** the Name as received (RFC 5280 §7.1 compares names as encoded by their issuer) */
  get subjectDer(): Uint8Array {
    return this.fields?.subject ?? encode(this.asn.tbsCertificate.subject);
  }

  get issuerDer(): Uint8Array {
    return this.fields?.issuer ?? encode(this.asn.tbsCertificate.issuer);
  }

  private extension(oid: string): ArrayBuffer | undefined {
    const fields = this.fields;
    if (fields) {
      const v = fields.extensions.get(oid);
      return v ? (v.slice().buffer as ArrayBuffer) : undefined;
    }
    return this.asn.tbsCertificate.extensions?.find((e) => e.extnID === oid)?.extnValue.buffer;
  }

  get subjectKeyIdentifier(): Uint8Array | undefined {
    const v = this.extension(OID.subjectKeyIdentifier);
    return v ? new Uint8Array(AsnParser.parse(v, SubjectKeyIdentifier).buffer) : undefined;
  }

  get authorityKeyIdentifier(): Uint8Array | undefined {
    const v = this.extension(OID.authorityKeyIdentifier);
    const id = v ? AsnParser.parse(v, AuthorityKeyIdentifier).keyIdentifier : undefined;
    return id ? new Uint8Array(id.buffer) : undefined;
  }

  get isCa(): boolean {
    const v = this.extension(OID.basicConstraints);
    return v ? AsnParser.parse(v, BasicConstraints).cA : false;
  }

  get keyUsage(): number | undefined {
    const v = this.extension(OID.keyUsage);
    return v ? AsnParser.parse(v, KeyUsage).toNumber() : undefined;
  }

  get publicKey(): PublicKeyInfo {
    const field = `${this.subject}.subjectPublicKeyInfo`;
    const spki = this.fields?.spki;
    this.keyInfo ??= spki
      ? publicKeyFromCertificate(spki, () => this.node.publicKey, field)
      : publicKeyFromSpki(encode(this.asn.tbsCertificate.subjectPublicKeyInfo), field);
    return this.keyInfo;
  }

  /**
   * Names are compared as received first; when the bytes differ, with minimal lengths on both sides (as the
   * DER re-encoding before single-pass parsing did), so a CRL or a SignerInfo sid whose issuer differs only in
   * length encoding still matches (RFC 5280 §7.1). Microseconds, so it may run for every loaded CRL.
   */
  subjectDerEquals(name: Uint8Array): boolean {
    return sameName(this.subjectDer, name);
  }

  issuerDerEquals(name: Uint8Array): boolean {
    return sameName(this.issuerDer, name);
  }

  isSelfSigned(): boolean {
    return this.subject === this.issuer && this.signedBy(this);
  }

  /** RFC 5280 §6.1.3 (a)(1),(4): names chain and the signature verifies with the issuer's key. */
  issuedBy(issuer: DocumentCertificate): boolean {
    return namesEqual(this.issuer, issuer.subject) && this.signedBy(issuer);
  }

  /**
   * RFC 5280 §6.1.3 (a)(1): the signature over the received tbsCertificate verifies with the issuer's key.
   * node:crypto verifies directly with the issuer's cached KeyObject (explicit EC parameters included, see
   * crypto/publicKey.ts); OpenSSL's X509_verify through X509Certificate remains the fallback for algorithms
   * or keys the direct path does not resolve.
   */
  signedBy(issuer: DocumentCertificate): boolean {
    // both certificates are immutable copies, so a check over the same pair has one answer
    let ok = this.issuerChecks.get(issuer.fingerprint);
    if (ok === undefined) this.issuerChecks.set(issuer.fingerprint, (ok = this.checkSignedBy(issuer)));
    return ok;
  }

  private checkSignedBy(issuer: DocumentCertificate): boolean {
    const f = this.fields;
    // X509_verify refuses a certificate whose outer signatureAlgorithm differs from tbsCertificate.signature (RFC 5280 §4.1.1.2)
    if (f && !bytesEqual(f.signatureAlgorithmDer, f.tbsSignatureAlgorithmDer)) return false;
    const direct = f ? directVerify(f, issuer) : undefined;
    if (direct !== undefined) return direct;
    try {
      return this.node.verify(issuer.node.publicKey);
    } catch {
      return false;
    }
  }

  validAt(t: Date): boolean {
    return t.getTime() >= this.notBefore.getTime() && t.getTime() <= this.notAfter.getTime();
  }

  summary(): CertificateSummary {
    return {
      subject: this.subject,
      issuer: this.issuer,
      serialNumber: toHex(this.serialNumber),
      notBefore: this.notBefore.toISOString(),
      notAfter: this.notAfter.toISOString(),
      sha256: this.fingerprint,
    };
  }
}

function sameName(a: Uint8Array, b: Uint8Array): boolean {
  if (bytesEqual(a, b)) return true;
  const ca = canonicalLengths(a);
  const cb = ca && canonicalLengths(b);
  return !!cb && bytesEqual(ca, cb);
}

const RECENT_SIGNERS = 512;
const recentSigners = new Map<string, DocumentCertificate>();

/** undefined when the direct path cannot decide (unknown algorithm, key node:crypto cannot import) */
function directVerify(f: CertificateFields, issuer: DocumentCertificate): boolean | undefined {
  try {
    const key = issuer.publicKey.key;
    if (!key) return undefined;
    return verifyWith(resolveSignatureAlgorithm(f.signatureAlgorithm, undefined, 'Certificate.signatureAlgorithm'), key, f.tbs, f.signature);
  } catch (e) {
    if (e instanceof Icao9303Error) return undefined;
    throw e;
  }
}

/** RFC 5280 §7.1 name matching, approximated on OpenSSL's normalised one-line form, case-insensitively. */
export function namesEqual(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export function stripLeadingZero(b: Uint8Array): Uint8Array {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  return b.subarray(i);
}
