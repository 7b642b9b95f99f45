/**
 * Builds a signed EF.SOD (ICAO 9303-10 §4.6.2): LDSSecurityObject v0 in CMS SignedData (RFC 5652) with
 * signed attributes contentType, signingTime, messageDigest, signed by the specimen Document Signer.
 */
import { createHash, sign, type KeyObject } from 'node:crypto';
import {
  Attribute,
  CertificateChoices,
  CertificateSet,
  ContentInfo,
  DigestAlgorithmIdentifiers,
  EncapsulatedContent,
  EncapsulatedContentInfo,
  IssuerAndSerialNumber,
  SignedData,
  SignerIdentifier,
  SignerInfo,
  SignerInfos,
} from '@peculiar/asn1-cms';
import { AlgorithmIdentifier, Certificate, Time } from '@peculiar/asn1-x509';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import * as asn1js from 'asn1js';
import { encode } from '../asn1/der.js';
import { OID, OID_BY_HASH } from '../asn1/oids.js';
import { AttributeSet, DataGroupHash, LdsSecurityObject } from '../asn1/schemas.js';
import { encodeTlv } from '../util/tlv.js';
import { toArrayBuffer } from '../util/bytes.js';
import type { DocumentCertificate } from '../pki/certificate.js';

export interface SodSigningInput {
  dataGroups: ReadonlyMap<number, Uint8Array>;
  signer: { certificate: DocumentCertificate; privateKey: KeyObject };
  hashAlgorithm?: 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512';
  signingTime?: Date;
}

const attr = (type: string, value: ArrayBuffer) => new Attribute({ attrType: type, attrValues: [value] });

export function buildSod(input: SodSigningInput): Uint8Array {
  const hash = input.hashAlgorithm ?? 'sha256';
  const hashAlg = new AlgorithmIdentifier({ algorithm: OID_BY_HASH[hash] });
  const lso = new LdsSecurityObject();
  lso.version = 0;
  lso.hashAlgorithm = hashAlg;
  lso.dataGroupHashValues = [...input.dataGroups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([dg, bytes]) =>
      Object.assign(new DataGroupHash(), { dataGroupNumber: dg, dataGroupHashValue: toArrayBuffer(new Uint8Array(createHash(hash).update(bytes).digest())) }),
    );
  const eContent = encode(lso);
  const attrs = [
    attr(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.ldsSecurityObject }).toBER()),
    attr(OID.signingTime, AsnConvert.serialize(new Time(input.signingTime ?? new Date()))),
    attr(OID.messageDigest, new asn1js.OctetString({ valueHex: createHash(hash).update(eContent).digest() }).toBER()),
  ];
  const signedAttrsDer = encode(new AttributeSet(attrs));
  const key = input.signer.privateKey;
  const isEc = key.asymmetricKeyType === 'ec';
  // ecdsa-with-SHA* (RFC 5758 §3.2) / sha*WithRSAEncryption (RFC 8017 A.2.4)
  const sigOid = isEc
    ? { sha1: '1.2.840.10045.4.1', sha224: '1.2.840.10045.4.3.1', sha256: '1.2.840.10045.4.3.2', sha384: '1.2.840.10045.4.3.3', sha512: '1.2.840.10045.4.3.4' }[
        hash
      ]
    : {
        sha1: '1.2.840.113549.1.1.5',
        sha224: '1.2.840.113549.1.1.14',
        sha256: '1.2.840.113549.1.1.11',
        sha384: '1.2.840.113549.1.1.12',
        sha512: '1.2.840.113549.1.1.13',
      }[hash];
  const signature = sign(hash, signedAttrsDer, key);
  const cert = input.signer.certificate;
  const signerInfo = new SignerInfo({
    version: 1,
    sid: new SignerIdentifier({
      issuerAndSerialNumber: new IssuerAndSerialNumber({ issuer: cert.asn.tbsCertificate.issuer, serialNumber: cert.asn.tbsCertificate.serialNumber }),
    }),
    digestAlgorithm: hashAlg,
    signedAttrs: attrs,
    signatureAlgorithm: new AlgorithmIdentifier({ algorithm: sigOid, ...(isEc ? {} : { parameters: null }) }),
    signature: new OctetString(signature),
  });
  const signedData = new SignedData({
    version: 3,
    digestAlgorithms: new DigestAlgorithmIdentifiers([hashAlg]),
    encapContentInfo: new EncapsulatedContentInfo({
      eContentType: OID.ldsSecurityObject,
      eContent: new EncapsulatedContent({ single: new OctetString(eContent) }),
    }),
    certificates: new CertificateSet([new CertificateChoices({ certificate: cert.asn as Certificate })]),
    signerInfos: new SignerInfos([signerInfo]),
  });
  const contentInfo = new ContentInfo({ contentType: OID.signedData, content: AsnConvert.serialize(signedData) });
  return encodeTlv(0x77, encode(contentInfo));
}
