/** Encoders for specimen LDS files (ICAO 9303-10 §4.6–4.7), the inverse of the ../lds parsers. */
import * as asn1js from 'asn1js';
import { concat, toArrayBuffer } from '../util/bytes.js';
import type { SmCipher } from '../sm/primitives.js';
import { encodeTlv } from '../util/tlv.js';
import { DG_TAGS } from '../lds/tags.js';
import { sniffImage } from '../lds/biometric/image.js';
import { OID } from '../asn1/oids.js';

const text = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

/** DG1: 61 { 5F1F MRZ } (9303-10 §4.7.1). */
export function encodeDg1(mrz: string): Uint8Array {
  return encodeTlv(0x61, encodeTlv(0x5f1f, text(mrz)));
}

/** EF.COM: 60 { 5F01 LDS version, 5F36 Unicode version, 5C tag list } (9303-10 §4.6.1). */
export function encodeEfCom(dataGroups: number[], ldsVersion = '0107', unicodeVersion = '040000'): Uint8Array {
  const tags = new Uint8Array(dataGroups.map((dg) => DG_TAGS[dg]));
  return encodeTlv(0x60, concat(encodeTlv(0x5f01, text(ldsVersion)), encodeTlv(0x5f36, text(unicodeVersion)), encodeTlv(0x5c, tags)));
}

/**
 * DG2 with one ISO/IEC 19794-5:2005 face record (9303-10 §4.7.2): biometric header template with format
 * owner 0x0101 (SC 37) and format type 0x0008 (face image), full-frontal image, JPEG or JPEG 2000.
 */
export function encodeDg2(image: Uint8Array): Uint8Array {
  const info = sniffImage(image, 'faceImage');
  const u16 = (n: number) => [n >> 8, n & 0xff];
  const u32 = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
  const facialBlockLength = 20 + 12 + image.length;
  const recordLength = 14 + facialBlockLength;
  const header = [0x46, 0x41, 0x43, 0x00, 0x30, 0x31, 0x30, 0x00, ...u32(recordLength), ...u16(1)];
  // facial information (19794-5 §5.5): no feature points, gender/eye/hair unspecified, neutral expression
  const facial = [...u32(facialBlockLength), ...u16(0), 0, 0, 0, 0, 0, 0, ...u16(1), 0, 0, 0, 0, 0, 0];
  // image information (19794-5 §5.7): full frontal (1), data type JPEG (0) / JPEG 2000 (1), 24-bit RGB, digital still
  const imageInfo = [1, info.type === 'JPEG' ? 0 : 1, ...u16(info.width ?? 0), ...u16(info.height ?? 0), 1, 2, ...u16(0), ...u16(0)];
  const record = concat(new Uint8Array([...header, ...facial, ...imageInfo]), image);
  const bht = encodeTlv(
    0xa1,
    concat(
      encodeTlv(0x80, new Uint8Array([1, 1])),
      encodeTlv(0x81, new Uint8Array([2])),
      encodeTlv(0x87, new Uint8Array([1, 1])),
      encodeTlv(0x88, new Uint8Array([0, 8])),
    ),
  );
  const template = encodeTlv(0x7f60, concat(bht, encodeTlv(0x5f2e, record)));
  return encodeTlv(0x75, encodeTlv(0x7f61, concat(encodeTlv(0x02, new Uint8Array([1])), template)));
}

export interface SpecimenDg11 {
  surname?: string;
  givenNames?: string;
  otherNames?: string[];
  personalNumber?: string;
  /** yyyymmdd */
  fullDateOfBirth?: string;
  placeOfBirth?: string[];
  address?: string[];
  telephone?: string;
  profession?: string;
  title?: string;
}

const mrzText = (s: string) => s.toUpperCase().replace(/\s+/g, '<');

/** DG11 (9303-10 §4.7.11); names use '<' separators, multi-part fields are joined with '<'. */
export function encodeDg11(d: SpecimenDg11): Uint8Array {
  const fields: Array<[number, string]> = [];
  if (d.surname !== undefined) fields.push([0x5f0e, `${mrzText(d.surname)}<<${mrzText(d.givenNames ?? '')}`]);
  if (d.personalNumber) fields.push([0x5f10, d.personalNumber]);
  if (d.fullDateOfBirth) fields.push([0x5f2b, d.fullDateOfBirth]);
  if (d.placeOfBirth) fields.push([0x5f11, d.placeOfBirth.join('<')]);
  if (d.address) fields.push([0x5f42, d.address.join('<')]);
  if (d.telephone) fields.push([0x5f12, d.telephone]);
  if (d.profession) fields.push([0x5f13, mrzText(d.profession)]);
  if (d.title) fields.push([0x5f14, mrzText(d.title)]);
  const tags = fields.map(([t]) => t);
  const parts = fields.map(([t, v]) => encodeTlv(t, text(v)));
  if (d.otherNames?.length) {
    tags.splice(1, 0, 0x5f0f);
    parts.push(
      encodeTlv(0xa0, concat(encodeTlv(0x02, new Uint8Array([d.otherNames.length])), ...d.otherNames.map((n) => encodeTlv(0x5f0f, text(mrzText(n)))))),
    );
  }
  const tagList = new Uint8Array(tags.flatMap((t) => [t >> 8, t & 0xff]));
  return encodeTlv(0x6b, concat(encodeTlv(0x5c, tagList), ...parts));
}

/** DG15: 6F { SubjectPublicKeyInfo } (9303-10 §4.7.15). */
export function encodeDg15(spki: Uint8Array): Uint8Array {
  return encodeTlv(DG_TAGS[15], spki);
}

/** DG14 with an ActiveAuthenticationInfo naming ecdsa-plain-SHA256 (required for ECDSA AA, 9303-11 §6.1). */
export function encodeDg14ForEcdsaAa(signatureAlgorithmOid = '0.4.0.127.0.7.1.1.4.1.3'): Uint8Array {
  return encodeDg14({ ecdsaAaSignatureAlgorithm: signatureAlgorithmOid });
}

export interface SpecimenDg14 {
  /** adds an ActiveAuthenticationInfo with this signature algorithm (9303-11 §6.1) */
  ecdsaAaSignatureAlgorithm?: string;
  /** adds a ChipAuthenticationPublicKeyInfo (id-PK-ECDH / id-PK-DH) and its ChipAuthenticationInfo (9303-11 §9.2.5, §9.2.6) */
  chipAuthentication?: { spki: Uint8Array; keyAgreement: 'ECDH' | 'DH'; cipher: SmCipher; keyId?: number };
}

const CA_CIPHER_ARC: Record<SmCipher, number> = { '3DES': 1, 'AES-128': 2, 'AES-192': 3, 'AES-256': 4 };

/** DG14: 6E { SecurityInfos } (9303-10 §4.7.14, 9303-11 §9.2). */
export function encodeDg14(d: SpecimenDg14): Uint8Array {
  const infos: asn1js.Sequence[] = [];
  if (d.ecdsaAaSignatureAlgorithm) {
    infos.push(
      new asn1js.Sequence({
        value: [
          new asn1js.ObjectIdentifier({ value: OID.activeAuthentication }),
          new asn1js.Integer({ value: 1 }),
          new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: d.ecdsaAaSignatureAlgorithm })] }),
        ],
      }),
    );
  }
  const ca = d.chipAuthentication;
  if (ca) {
    const keyId = ca.keyId === undefined ? [] : [new asn1js.Integer({ value: ca.keyId })];
    const spki = asn1js.fromBER(toArrayBuffer(ca.spki)).result;
    infos.push(new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: ca.keyAgreement === 'DH' ? OID.pkDh : OID.pkEcdh }), spki, ...keyId] }));
    // id-CA-<DH|ECDH>-<cipher>, version 1 (CA v1 as used with DG14)
    const protocol = `${OID.caPrefix}${ca.keyAgreement === 'DH' ? 1 : 2}.${CA_CIPHER_ARC[ca.cipher]}`;
    infos.push(new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: protocol }), new asn1js.Integer({ value: 1 }), ...keyId] }));
  }
  return encodeTlv(DG_TAGS[14], new Uint8Array(new asn1js.Set({ value: infos }).toBER()));
}
