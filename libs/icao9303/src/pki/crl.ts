/**
 * CSCA certificate revocation lists (ICAO 9303-12 §7.1.4, RFC 5280 §5). Structure via @peculiar/asn1-x509;
 * the signature is checked over the original tbsCertList bytes.
 */
import { CertificateList } from '@peculiar/asn1-x509';
import { Icao9303Error } from '../errors.js';
import { decode, encode } from '../asn1/der.js';
import { DerReader, TAG } from '../asn1/derReader.js';
import { resolveSignatureAlgorithm, verifyWith } from '../crypto/verifySignature.js';
import { toHex } from '../util/bytes.js';
import { DocumentCertificate, stripLeadingZero } from './certificate.js';

export interface RevokedEntry {
  serialNumber: string;
  revocationDate: Date;
}

export class CertificateRevocationList {
  readonly issuerDer: Uint8Array;
  readonly thisUpdate: Date;
  readonly nextUpdate?: Date;
  readonly revoked: RevokedEntry[];
  private readonly tbs: Uint8Array;

  private constructor(
    readonly der: Uint8Array,
    readonly asn: CertificateList,
  ) {
    const t = asn.tbsCertList;
    this.issuerDer = encode(t.issuer);
    this.thisUpdate = t.thisUpdate.getTime();
    this.nextUpdate = t.nextUpdate?.getTime();
    this.revoked = (t.revokedCertificates ?? []).map((r) => ({
      serialNumber: toHex(stripLeadingZero(new Uint8Array(r.userCertificate))),
      revocationDate: r.revocationDate.getTime(),
    }));
    // The signed part as received (RFC 5280 §5.1.1.3), not as re-encoded.
    const reader = new DerReader('CRL_MALFORMED', 'CRL');
    this.tbs = reader.children(reader.one(der, 'CertificateList', TAG.SEQUENCE), 'CertificateList')[0].raw;
  }

  static fromDer(der: Uint8Array, field = 'CRL'): CertificateRevocationList {
    const asn = decode(der, CertificateList, 'CRL_MALFORMED', field);
    return new CertificateRevocationList(der, asn);
  }

  /** RFC 5280 §6.3.3 (f),(g): the CRL is signed by the CSCA that issued the certificates it covers. */
  verifiedBy(issuer: DocumentCertificate): boolean {
    try {
      const alg = resolveSignatureAlgorithm(this.asn.signatureAlgorithm, undefined, 'CRL.signatureAlgorithm');
      return verifyWith(alg, issuer.publicKey.key!, this.tbs, new Uint8Array(this.asn.signature));
    } catch (e) {
      if (e instanceof Icao9303Error) return false;
      throw e;
    }
  }

  isRevoked(cert: DocumentCertificate, at: Date): RevokedEntry | undefined {
    const serial = toHex(cert.serialNumber);
    return this.revoked.find((r) => r.serialNumber === serial && r.revocationDate.getTime() <= at.getTime());
  }
}
