import * as asn1js from 'asn1js';
import { createHash, webcrypto } from 'node:crypto';
import * as pkijs from 'pkijs';

/** What signs: the private key (WebCrypto, for pkijs) and the certificate chain, signer first, as DER. */
export interface PadesSigner {
  privateKey: webcrypto.CryptoKey;
  /** DER certificates: the signer's first, then the intermediates (and the root, if the configuration gives it). */
  chain: Buffer[];
}

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
} as const;

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();
const arrayBuffer = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/**
 * A detached CAdES signature for PAdES B-B (ETSI EN 319 142-1 §6.3, EN 319 122-1 §5.2): CMS SignedData over
 * the SHA-256 `digest` of the document's byte ranges, with the signed attributes content-type (id-data),
 * message-digest and signing-certificate-v2 (ESSCertIDv2: SHA-256 of the signer's certificate, issuer and
 * serial) and, as PAdES requires, no signing-time (the time is the signature dictionary's /M). The whole
 * chain travels in `certificates`. Returns the DER ContentInfo for /Contents.
 */
export async function cadesDetachedSignature(digest: Buffer, signer: PadesSigner): Promise<Buffer> {
  const certificates = signer.chain.map((der) => pkijs.Certificate.fromBER(arrayBuffer(der)));
  const signerCertificate = certificates[0];
  const attributes = [
    new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
    new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: arrayBuffer(digest) })] }),
    new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2(signer.chain[0], signerCertificate)] }),
  ];
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: signerCertificate.issuer, serialNumber: signerCertificate.serialNumber }),
        // DER orders a SET OF by the encodings of its members (X.690 §11.6); the signature covers this encoding.
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: sortedByEncoding(attributes) }),
      }),
    ],
    certificates,
  });
  await signedData.sign(signer.privateKey, 0, 'SHA-256');
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return Buffer.from(contentInfo.toSchema().toBER(false));
}

/** SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 } (RFC 5035), hash algorithm SHA-256 (the default, so omitted). */
function signingCertificateV2(der: Buffer, certificate: pkijs.Certificate): asn1js.Sequence {
  const issuerSerial = new pkijs.IssuerSerial({
    issuer: new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: certificate.issuer })] }),
    serialNumber: certificate.serialNumber,
  });
  const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: arrayBuffer(sha256(der)) }), issuerSerial.toSchema()] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

function sortedByEncoding(attributes: pkijs.Attribute[]): pkijs.Attribute[] {
  const encoded = attributes.map((a) => ({ a, der: Buffer.from(a.toSchema().toBER(false)) }));
  return encoded.sort((x, y) => Buffer.compare(x.der, y.der)).map((e) => e.a);
}

/** The DER digest the signature covers: SHA-256 over the two byte ranges around /Contents. */
export function byteRangeDigest(pdf: Buffer, range: [number, number, number, number]): Buffer {
  return createHash('sha256').update(pdf.subarray(range[0], range[0] + range[1])).update(pdf.subarray(range[2], range[2] + range[3])).digest();
}
