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
import { publicKeyFromSpki, type PublicKeyInfo } from '../crypto/publicKey.js';
import { readTlv } from '../util/tlv.js';

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

  private constructor(readonly der: Uint8Array, readonly node: X509Certificate) {
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

  static fromDer(der: Uint8Array, field = 'certificate'): DocumentCertificate {
    const outer = readTlv(der, 0, field);
    if (outer.tag !== 0x30 || outer.end !== der.length) throw new Icao9303Error('CERTIFICATE_MALFORMED', field, 'not a single DER SEQUENCE');
    try {
      return new DocumentCertificate(der, new X509Certificate(toBuffer(der)));
    } catch (e) {
      throw new Icao9303Error('CERTIFICATE_MALFORMED', field, (e as Error).message, { cause: e });
    }
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

  /** INTEGER content octets (two's complement, leading zero stripped); some CSCAs use negative serials */
  get serialNumber(): Uint8Array {
    return stripLeadingZero(new Uint8Array(this.asn.tbsCertificate.serialNumber));
  }

  get subjectDer(): Uint8Array {
    return encode(this.asn.tbsCertificate.subject);
  }

  get issuerDer(): Uint8Array {
    return encode(this.asn.tbsCertificate.issuer);
  }

  private extension(oid: string): ArrayBuffer | undefined {
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
    this.keyInfo ??= publicKeyFromSpki(encode(this.asn.tbsCertificate.subjectPublicKeyInfo), `${this.subject}.subjectPublicKeyInfo`);
    return this.keyInfo;
  }

  subjectDerEquals(name: Uint8Array): boolean {
    return bytesEqual(this.subjectDer, name);
  }

  issuerDerEquals(name: Uint8Array): boolean {
    return bytesEqual(this.issuerDer, name);
  }

  isSelfSigned(): boolean {
    return this.subject === this.issuer && this.signedBy(this);
  }

  /** RFC 5280 §6.1.3 (a)(1),(4): names chain and the signature verifies with the issuer's key. */
  issuedBy(issuer: DocumentCertificate): boolean {
    return namesEqual(this.issuer, issuer.subject) && this.signedBy(issuer);
  }

  signedBy(issuer: DocumentCertificate): boolean {
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
    return { subject: this.subject, issuer: this.issuer, serialNumber: toHex(this.serialNumber), notBefore: this.notBefore.toISOString(), notAfter: this.notAfter.toISOString(), sha256: this.fingerprint };
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
