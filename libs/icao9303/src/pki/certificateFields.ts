/**
 * The parts of an X.509 certificate (RFC 5280 §4.1) that path validation needs, sliced from the received
 * DER in one pass: the signed tbsCertificate bytes, both signature algorithm fields, the signature value,
 * serial, issuer and subject Names as encoded, the SubjectPublicKeyInfo and the extension values by OID.
 * Replaces a schema decode per certificate on the passive-authentication path (ICAO 9303-11 §5.1).
 */
import type { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { DerReader, TAG } from '../asn1/derReader.js';
import { algorithm } from '../sod/signedData.js';

export interface CertificateFields {
  tbs: Uint8Array;
  signatureAlgorithm: AlgorithmIdentifier;
  signatureAlgorithmDer: Uint8Array;
  tbsSignatureAlgorithmDer: Uint8Array;
  signature: Uint8Array;
  serialNumber: Uint8Array;
  issuer: Uint8Array;
  subject: Uint8Array;
  spki: Uint8Array;
  /** extnValue contents (the OCTET STRING's value) by extnID */
  extensions: Map<string, Uint8Array>;
}

export function certificateFields(der: Uint8Array): CertificateFields {
  const r = new DerReader('CERTIFICATE_MALFORMED', 'Certificate');
  // Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue BIT STRING }
  const c = r.children(r.one(der, 'Certificate', TAG.SEQUENCE), 'Certificate');
  if (c.length !== 3) r.fail('Certificate', 'expected SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }');
  const tbsNode = r.expect(c[0], TAG.SEQUENCE, 'tbsCertificate');
  const t = r.children(tbsNode, 'tbsCertificate');
  // TBSCertificate ::= SEQUENCE { version [0] EXPLICIT DEFAULT v1, serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, issuerUniqueID [1], subjectUniqueID [2], extensions [3] }
  let i = t[0]?.tag === 0xa0 ? 1 : 0;
  const serialNumber = r.expect(t[i++], TAG.INTEGER, 'serialNumber').value;
  const tbsSignatureAlgorithmDer = r.expect(t[i++], TAG.SEQUENCE, 'tbsCertificate.signature').raw;
  const issuer = r.expect(t[i++], TAG.SEQUENCE, 'issuer').raw;
  r.expect(t[i++], TAG.SEQUENCE, 'validity');
  const subject = r.expect(t[i++], TAG.SEQUENCE, 'subject').raw;
  const spki = r.expect(t[i++], TAG.SEQUENCE, 'subjectPublicKeyInfo').raw;
  if (t[i]?.tag === 0x81 || t[i]?.tag === 0xa1) i++;
  if (t[i]?.tag === 0x82 || t[i]?.tag === 0xa2) i++;
  const extensions = new Map<string, Uint8Array>();
  if (t[i]?.tag === 0xa3) {
    const wrap = r.children(t[i++], 'extensions');
    for (const ext of r.children(r.expect(wrap[0], TAG.SEQUENCE, 'extensions'), 'extensions')) {
      // Extension ::= SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }
      const e = r.children(r.expect(ext, TAG.SEQUENCE, 'extension'), 'extension');
      const oid = r.oid(e[0], 'extnID');
      // RFC 5280 §4.2: a certificate MUST NOT include more than one instance of an extension
      if (extensions.has(oid)) r.fail('extensions', `extension ${oid} occurs twice`);
      extensions.set(oid, r.octets(e[e.length - 1], 'extnValue'));
    }
  }
  if (i !== t.length) r.fail('tbsCertificate', 'unexpected element');
  return {
    tbs: tbsNode.raw,
    signatureAlgorithm: algorithm(c[1], r, 'signatureAlgorithm'),
    signatureAlgorithmDer: c[1].raw,
    tbsSignatureAlgorithmDer,
    signature: r.bits(c[2], 'signatureValue'),
    serialNumber,
    issuer,
    subject,
    spki,
    extensions,
  };
}
