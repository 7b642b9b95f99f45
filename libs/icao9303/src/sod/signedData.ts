/**
 * CMS SignedData (RFC 5652 §5) decoding shared by EF.SOD, EF.CardSecurity and CSCA master lists.
 * Read in one pass with the DER reader over the received bytes: the signed attributes are kept as received
 * because the signature is computed over their original DER with the SET OF tag (RFC 5652 §5.4), and the
 * embedded certificates as their original bytes (RFC 5652 §5.1).
 */
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { Icao9303Error, guard } from '../errors.js';
import { DerReader, TAG, type DerNode } from '../asn1/derReader.js';
import { OID } from '../asn1/oids.js';

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

const CTX0 = 0xa0; // [0] constructed
const CTX1 = 0xa1;
const CTX0_PRIMITIVE = 0x80;

export function parseSignedData(contentInfoDer: Uint8Array, field: string): ParsedSignedData {
  return guard('SOD_MALFORMED', field, () => parse(contentInfoDer, new DerReader('SOD_MALFORMED', field)));
}

function parse(bytes: Uint8Array, r: DerReader): ParsedSignedData {
  // ContentInfo ::= SEQUENCE { contentType, content [0] EXPLICIT ANY } (RFC 5652 §3)
  const ci = r.children(r.one(bytes, 'ContentInfo', TAG.SEQUENCE), 'ContentInfo');
  const contentType = r.oid(ci[0], 'contentType');
  if (contentType !== OID.signedData) throw new Icao9303Error('SOD_MALFORMED', `${r.field}.contentType`, `expected signedData, found ${contentType}`);
  const wrapper = r.children(r.expect(ci[1], CTX0, 'content'), 'content');
  if (wrapper.length !== 1 || ci.length !== 2) r.fail('ContentInfo', 'expected SEQUENCE { contentType, [0] content }');
  // SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo, certificates [0] OPT, crls [1] OPT, signerInfos SET } (§5.1)
  const sd = r.children(wrapper[0], 'SignedData', TAG.SEQUENCE);
  r.smallInt(sd[0], 'SignedData.version');
  r.children(r.expect(sd[1], TAG.SET, 'SignedData.digestAlgorithms'), 'SignedData.digestAlgorithms');
  const eci = r.children(r.expect(sd[2], TAG.SEQUENCE, 'SignedData.encapContentInfo'), 'SignedData.encapContentInfo');
  const eContentType = r.oid(eci[0], 'eContentType');
  if (!eci[1])
    throw new Icao9303Error('SOD_MALFORMED', `${r.field}.eContent`, 'encapsulated content is absent (detached signatures are not used by 9303-10 §4.6.2)');
  const ecWrap = r.children(r.expect(eci[1], CTX0, 'eContent'), 'eContent');
  if (ecWrap.length !== 1 || eci.length !== 2) r.fail('eContent', 'expected one OCTET STRING');
  const eContent = r.octets(ecWrap[0], 'eContent').slice();
  let i = 3;
  let certificates: Uint8Array[] = [];
  if (sd[i]?.tag === CTX0)
    certificates = r
      .children(sd[i++], 'SignedData.certificates')
      .filter((c) => c.tag === TAG.SEQUENCE)
      .map((c) => c.raw);
  if (sd[i]?.tag === CTX1) i++; // crls: not used for eMRTDs (9303-12 §7.1.4 distributes CRLs separately)
  const signerInfos = r.children(r.expect(sd[i], TAG.SET, 'SignedData.signerInfos'), 'SignedData.signerInfos');
  if (i !== sd.length - 1) r.fail('SignedData', 'unexpected element after signerInfos');
  if (signerInfos.length < 1) throw new Icao9303Error('SOD_MALFORMED', `${r.field}.signerInfos`, 'no SignerInfo');
  return { eContentType, eContent, signerInfoCount: signerInfos.length, certificates, signerInfo: signerInfo(signerInfos[0], r) };
}

/** SignerInfo ::= SEQUENCE { version, sid, digestAlgorithm, signedAttrs [0] IMPLICIT OPT, signatureAlgorithm, signature, unsignedAttrs [1] OPT } (§5.3) */
function signerInfo(node: DerNode, r: DerReader): ParsedSignerInfo {
  const f = 'SignerInfo';
  const s = r.children(node, f, TAG.SEQUENCE);
  const version = r.smallInt(s[0], `${f}.version`);
  let sid: SignerIdentity;
  if (s[1]?.tag === TAG.SEQUENCE) {
    // IssuerAndSerialNumber ::= SEQUENCE { issuer Name, serialNumber INTEGER }
    const ias = r.children(s[1], `${f}.sid`);
    if (ias.length !== 2) r.fail(`${f}.sid`, 'expected SEQUENCE { issuer, serialNumber }');
    sid = { issuer: r.expect(ias[0], TAG.SEQUENCE, `${f}.sid.issuer`).raw, serialNumber: r.expect(ias[1], TAG.INTEGER, `${f}.sid.serialNumber`).value };
  } else {
    sid = { subjectKeyIdentifier: r.expect(s[1], CTX0_PRIMITIVE, `${f}.sid`).value };
  }
  const digestAlgorithmOid = algorithm(s[2], r, `${f}.digestAlgorithm`).algorithm;
  let i = 3;
  const attrsNode = s[i]?.tag === CTX0 ? s[i++] : undefined;
  const signatureAlgorithm = algorithm(s[i++], r, `${f}.signatureAlgorithm`);
  const signature = r.octets(s[i++], `${f}.signature`).slice();
  if (s[i]?.tag === CTX1) i++;
  if (i !== s.length) r.fail(f, 'unexpected element at the end');
  return {
    version,
    sid,
    digestAlgorithmOid,
    signatureAlgorithm,
    signatureAlgorithmOid: signatureAlgorithm.algorithm,
    signature,
    signedAttributes: attrsNode ? signedAttributes(attrsNode, r) : undefined,
  };
}

/** AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL } (RFC 5280 §4.1.1.2), parameters as raw DER. */
export function algorithm(node: DerNode | undefined, r: DerReader, where: string): AlgorithmIdentifier {
  const a = r.children(r.expect(node, TAG.SEQUENCE, where), where);
  if (a.length < 1 || a.length > 2) r.fail(where, 'expected SEQUENCE { algorithm, parameters OPTIONAL }');
  return new AlgorithmIdentifier({ algorithm: r.oid(a[0], where), parameters: a[1] ? a[1].raw.slice().buffer : undefined });
}

function signedAttributes(node: DerNode, r: DerReader): SignedAttributes {
  const f = 'signedAttrs';
  // the [0] IMPLICIT encoding as received; the signature covers it with the universal SET tag (RFC 5652 §5.4)
  const der = node.raw.slice();
  der[0] = 0x31;
  const found = new Map<string, DerNode[][]>();
  for (const attr of r.children(node, f)) {
    // Attribute ::= SEQUENCE { attrType OID, attrValues SET OF AttributeValue }
    const a = r.children(r.expect(attr, TAG.SEQUENCE, f), f);
    if (a.length !== 2) r.fail(f, 'expected Attribute ::= SEQUENCE { attrType, attrValues }');
    const oid = r.oid(a[0], f);
    found.set(oid, [...(found.get(oid) ?? []), r.children(a[1], f, TAG.SET)]);
  }
  const single = (oid: string): DerNode | undefined => {
    const list = found.get(oid);
    if (list && (list.length > 1 || list[0].length !== 1)) r.fail(f, `attribute ${oid} must occur once with one value (RFC 5652 §11)`);
    return list?.[0][0];
  };
  const ct = single(OID.contentType);
  const md = single(OID.messageDigest);
  const st = single(OID.signingTime);
  return {
    der,
    contentType: ct ? r.oid(ct, `${f}.contentType`) : undefined,
    messageDigest: md ? r.octets(md, `${f}.messageDigest`) : undefined,
    signingTime: st ? r.time(st, `${f}.signingTime`) : undefined,
  };
}
