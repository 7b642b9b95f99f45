/**
 * CMS SignedData (RFC 5652 §5) decoding shared by EF.SOD, EF.CardSecurity and CSCA master lists.
 * Structure comes from @peculiar/asn1-cms; we keep the raw signed attributes because the signature is
 * computed over their original DER with the SET OF tag (RFC 5652 §5.4).
 */
import { ContentInfo, SignedData, Attribute } from '@peculiar/asn1-cms';
import { AlgorithmIdentifier, Time } from '@peculiar/asn1-x509';
import { AsnArray, AsnParser, AsnType, AsnTypeTypes, OctetString } from '@peculiar/asn1-schema';
import * as asn1js from 'asn1js';
import { Icao9303Error, guard } from '../errors.js';
import { decode, encode, parseBer, rawChildren } from '../asn1/der.js';
import { OID } from '../asn1/oids.js';
import { concat } from '../util/bytes.js';

export interface SignerIdentity {
  /** DER of the issuer Name, when identified by issuerAndSerialNumber */
  issuer?: Uint8Array;
  serialNumber?: Uint8Array;
  subjectKeyIdentifier?: Uint8Array;
}

export interface SignedAttributes {
  /** DER of the SET OF Attribute, as signed (RFC 5652 §5.4) */
  der: Uint8Array;
  contentType?: string;
  messageDigest?: Uint8Array;
  signingTime?: Date;
}

export interface ParsedSignerInfo {
  version: number;
  sid: SignerIdentity;
  digestAlgorithmOid: string;
  signatureAlgorithm: AlgorithmIdentifier;
  signatureAlgorithmOid: string;
  signature: Uint8Array;
  signedAttributes?: SignedAttributes;
}

export interface ParsedSignedData {
  eContentType: string;
  eContent: Uint8Array;
  signerInfo: ParsedSignerInfo;
  signerInfoCount: number;
  /** DER of every certificate in SignedData.certificates */
  certificates: Uint8Array[];
}

export function parseSignedData(contentInfoDer: Uint8Array, field: string): ParsedSignedData {
  return guard('SOD_MALFORMED', field, () => parse(contentInfoDer, field));
}

function parse(contentInfoDer: Uint8Array, field: string): ParsedSignedData {
  const ci = decode(contentInfoDer, ContentInfo, 'SOD_MALFORMED', `${field}.ContentInfo`);
  if (ci.contentType !== OID.signedData) throw new Icao9303Error('SOD_MALFORMED', `${field}.contentType`, `expected signedData, found ${ci.contentType}`);
  const sd = decode(ci.content, SignedData, 'SOD_MALFORMED', `${field}.SignedData`);
  const sdNode = parseBer(ci.content, 'SOD_MALFORMED', `${field}.SignedData`);
  const eContent = econtentBytes(sd, field);
  if (sd.signerInfos.length < 1) throw new Icao9303Error('SOD_MALFORMED', `${field}.signerInfos`, 'no SignerInfo');
  const si = sd.signerInfos[0];
  // certificates [0] IMPLICIT CertificateSet: keep each certificate's original bytes (RFC 5652 §5.1)
  const certSet = (sdNode as asn1js.Sequence).valueBlock.value.find((c) => c.idBlock.tagClass === 3 && c.idBlock.tagNumber === 0);
  const certificates = certSet ? rawChildren(certSet).filter((c) => c[0] === 0x30) : [];
  const sid: SignerIdentity = si.sid.issuerAndSerialNumber
    ? { issuer: encode(si.sid.issuerAndSerialNumber.issuer), serialNumber: new Uint8Array(si.sid.issuerAndSerialNumber.serialNumber) }
    : { subjectKeyIdentifier: new Uint8Array(si.sid.subjectKeyIdentifier!.buffer) };
  return {
    eContentType: sd.encapContentInfo.eContentType,
    eContent,
    signerInfoCount: sd.signerInfos.length,
    certificates,
    signerInfo: {
      version: si.version,
      sid,
      digestAlgorithmOid: si.digestAlgorithm.algorithm,
      signatureAlgorithm: si.signatureAlgorithm,
      signatureAlgorithmOid: si.signatureAlgorithm.algorithm,
      signature: new Uint8Array(si.signature.buffer),
      signedAttributes: si.signedAttrs ? signedAttributes(si.signedAttrs, rawSignedAttributes(sdNode, field), field) : undefined,
    },
  };
}

function econtentBytes(sd: SignedData, field: string): Uint8Array {
  const ec = sd.encapContentInfo.eContent;
  if (!ec) throw new Icao9303Error('SOD_MALFORMED', `${field}.eContent`, 'encapsulated content is absent (detached signatures are not used by 9303-10 §4.6.2)');
  if (ec.single) return new Uint8Array(ec.single.buffer);
  // BER constructed OCTET STRING: concatenate the primitive segments (X.690 §8.7.3)
  const parsed = asn1js.fromBER(ec.any!);
  const out: Uint8Array[] = [];
  const walk = (b: asn1js.AsnType) => {
    if (b instanceof asn1js.OctetString && !b.idBlock.isConstructed) out.push(new Uint8Array(b.valueBlock.valueHexView));
    else if (b instanceof asn1js.OctetString) for (const c of b.valueBlock.value) walk(c);
    else throw new Icao9303Error('SOD_MALFORMED', `${field}.eContent`, 'eContent is not an OCTET STRING');
  };
  if (parsed.offset === -1) throw new Icao9303Error('SOD_MALFORMED', `${field}.eContent`, 'invalid BER');
  walk(parsed.result);
  return concat(...out);
}

/** Original bytes of SignerInfo.signedAttrs [0] IMPLICIT, read from the undecoded tree (never re-encoded). */
function rawSignedAttributes(sdNode: asn1js.AsnType, field: string): Uint8Array {
  const signerInfos = (sdNode as asn1js.Sequence).valueBlock.value.at(-1) as asn1js.Set | undefined;
  const first = signerInfos?.valueBlock?.value?.[0] as asn1js.Sequence | undefined;
  // SignerInfo ::= SEQUENCE { version, sid, digestAlgorithm, signedAttrs [0] IMPLICIT OPTIONAL, … }; sid may itself be [0] (SKI)
  const attrs = first?.valueBlock?.value?.slice(3).find((c) => c.idBlock.tagClass === 3 && c.idBlock.tagNumber === 0 && c.idBlock.isConstructed);
  if (!attrs) throw new Icao9303Error('SOD_MALFORMED', `${field}.signedAttrs`, 'cannot locate the signed attributes');
  return new Uint8Array(attrs.valueBeforeDecodeView);
}

function signedAttributes(attrs: Attribute[], raw: Uint8Array, field: string): SignedAttributes {
  // raw holds the [0] IMPLICIT encoding; the signature covers it with the universal SET tag (RFC 5652 §5.4)
  const der = raw.slice();
  der[0] = 0x31;
  const single = (oid: string) => {
    const found = attrs.filter((a) => a.attrType === oid);
    if (found.length > 1 || (found.length === 1 && found[0].attrValues.length !== 1)) {
      throw new Icao9303Error('SOD_MALFORMED', `${field}.signedAttrs`, `attribute ${oid} must occur once with one value (RFC 5652 §11)`);
    }
    return found[0]?.attrValues[0];
  };
  const ct = single(OID.contentType);
  const md = single(OID.messageDigest);
  const st = single(OID.signingTime);
  try {
    return {
      der,
      contentType: ct ? objectIdentifier(ct) : undefined,
      messageDigest: md ? new Uint8Array(AsnParser.parse(md, OctetString).buffer) : undefined,
      signingTime: st ? AsnParser.parse(st, Time).getTime() : undefined,
    };
  } catch (e) {
    throw new Icao9303Error('SOD_MALFORMED', `${field}.signedAttrs`, (e as Error).message, { cause: e });
  }
}

@AsnType({ type: AsnTypeTypes.Set, itemType: Attribute })
export class AttributeSet extends AsnArray<Attribute> {
  constructor(items?: Attribute[]) {
    super(items);
    Object.setPrototypeOf(this, AttributeSet.prototype);
  }
}

function objectIdentifier(der: ArrayBuffer): string {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.ObjectIdentifier)) throw new Error('contentType attribute is not an OBJECT IDENTIFIER');
  return parsed.result.valueBlock.toString();
}
