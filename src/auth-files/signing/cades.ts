import {
  Attribute,
  CertificateChoices,
  CertificateSet,
  ContentInfo,
  DigestAlgorithmIdentifiers,
  EncapsulatedContentInfo,
  IssuerAndSerialNumber,
  SignedData,
  SignerIdentifier,
  SignerInfo,
  SignerInfos,
} from '@peculiar/asn1-cms';
import { AsnArray, AsnConvert, AsnIntegerArrayBufferConverter, AsnProp, AsnPropTypes, AsnType, AsnTypeTypes, OctetString } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, Certificate, GeneralName, GeneralNames } from '@peculiar/asn1-x509';
import { AsnEcSignatureFormatter } from '@peculiar/x509';
import { createHash, webcrypto } from 'node:crypto';

/** What signs: the private key (WebCrypto: RSASSA-PKCS1-v1_5 or ECDSA, SHA-256) and the certificate chain, signer first, as DER. */
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
  sha256: '2.16.840.1.101.3.4.2.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const;
/** The DER of the OBJECT IDENTIFIER id-data, the content-type attribute's value. */
const ID_DATA_DER = new Uint8Array([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01]).buffer;
/** The DER of NULL: the parameters of SHA-256 and of sha256WithRSAEncryption (RFC 4055 §2.1, §5). */
const NULL_PARAMETERS = new Uint8Array([0x05, 0x00]).buffer;

/** IssuerSerial ::= SEQUENCE { issuer GeneralNames, serialNumber CertificateSerialNumber, ... } (RFC 5035 §4). */
class IssuerSerial {
  @AsnProp({ type: GeneralNames }) issuer = new GeneralNames();
  @AsnProp({ type: AsnPropTypes.Integer, converter: AsnIntegerArrayBufferConverter }) serialNumber = new ArrayBuffer(0);
  constructor(params: Partial<IssuerSerial> = {}) {
    Object.assign(this, params);
  }
}

/** ESSCertIDv2 with the default hash algorithm, SHA-256, which DER leaves out (RFC 5035 §4). */
class EssCertIdV2 {
  @AsnProp({ type: OctetString }) certHash = new OctetString();
  @AsnProp({ type: IssuerSerial }) issuerSerial = new IssuerSerial();
  constructor(params: Partial<EssCertIdV2> = {}) {
    Object.assign(this, params);
  }
}

@AsnType({ type: AsnTypeTypes.Sequence, itemType: EssCertIdV2 })
class EssCertIdsV2 extends AsnArray<EssCertIdV2> {}

/** SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 } (RFC 5035 §3). */
class SigningCertificateV2 {
  @AsnProp({ type: EssCertIdsV2 }) certs = new EssCertIdsV2();
  constructor(params: Partial<SigningCertificateV2> = {}) {
    Object.assign(this, params);
  }
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();
const der = (value: object): Buffer => Buffer.from(AsnConvert.serialize(value));
const arrayBuffer = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/**
 * A detached CAdES signature for PAdES B-B (ETSI EN 319 142-1 §6.3, EN 319 122-1 §5.2): CMS SignedData over
 * the SHA-256 `digest` of the document's byte ranges, with the signed attributes content-type (id-data),
 * message-digest and signing-certificate-v2 (ESSCertIDv2: SHA-256 of the signer's certificate, issuer and
 * serial) and, as PAdES requires, no signing-time (the time is the signature dictionary's /M). The whole
 * chain travels in `certificates`. Returns the DER ContentInfo for /Contents.
 */
export async function cadesDetachedSignature(digest: Buffer, signer: PadesSigner): Promise<Buffer> {
  const certificates = signer.chain.map((certificate) => AsnConvert.parse(certificate, Certificate));
  const { issuer, serialNumber } = certificates[0].tbsCertificate;
  const signingCertificate = new SigningCertificateV2({
    certs: new EssCertIdsV2([
      new EssCertIdV2({
        certHash: new OctetString(sha256(signer.chain[0])),
        issuerSerial: new IssuerSerial({ issuer: new GeneralNames([new GeneralName({ directoryName: issuer })]), serialNumber }),
      }),
    ]),
  });
  // DER orders a SET OF by the encodings of its members (X.690 §11.6); the signature covers this encoding.
  const signedAttrs = [
    new Attribute({ attrType: OID.contentType, attrValues: [ID_DATA_DER] }),
    new Attribute({ attrType: OID.messageDigest, attrValues: [arrayBuffer(der(new OctetString(digest)))] }),
    new Attribute({ attrType: OID.signingCertificateV2, attrValues: [arrayBuffer(der(signingCertificate))] }),
  ].sort((a, b) => Buffer.compare(der(a), der(b)));
  const ecdsa = signer.privateKey.algorithm.name === 'ECDSA';
  const signedAttrsDer = setOf(signedAttrs.map(der));
  const algorithm = ecdsa ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'RSASSA-PKCS1-v1_5' };
  let signature = await webcrypto.subtle.sign(algorithm, signer.privateKey, signedAttrsDer);
  // WebCrypto's ECDSA signature is r || s; CMS carries ECDSA-Sig-Value (RFC 5753 §2.1.1, RFC 3279 §2.2.3).
  if (ecdsa) signature = new AsnEcSignatureFormatter().toAsnSignature(signer.privateKey.algorithm as webcrypto.EcKeyAlgorithm, signature)!;
  const signedData = new SignedData({
    version: 1,
    digestAlgorithms: new DigestAlgorithmIdentifiers([new AlgorithmIdentifier({ algorithm: OID.sha256, parameters: NULL_PARAMETERS })]),
    encapContentInfo: new EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates: new CertificateSet(certificates.map((certificate) => new CertificateChoices({ certificate }))),
    signerInfos: new SignerInfos([
      new SignerInfo({
        version: 1,
        sid: new SignerIdentifier({ issuerAndSerialNumber: new IssuerAndSerialNumber({ issuer, serialNumber }) }),
        digestAlgorithm: new AlgorithmIdentifier({ algorithm: OID.sha256, parameters: NULL_PARAMETERS }),
        signedAttrs,
        signatureAlgorithm: ecdsa
          ? new AlgorithmIdentifier({ algorithm: OID.ecdsaWithSha256 })
          : new AlgorithmIdentifier({ algorithm: OID.sha256WithRsa, parameters: NULL_PARAMETERS }),
        signature: new OctetString(signature),
      }),
    ]),
  });
  return der(new ContentInfo({ contentType: OID.signedData, content: AsnConvert.serialize(signedData) }));
}

/** The DER of SET OF over members already in DER order. */
function setOf(members: Buffer[]): Buffer {
  const body = Buffer.concat(members);
  const length = body.length < 0x80 ? Buffer.from([body.length]) : lengthOctets(body.length);
  return Buffer.concat([Buffer.from([0x31]), length, body]);
}

function lengthOctets(length: number): Buffer {
  const octets: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) octets.unshift(n % 256);
  return Buffer.from([0x80 | octets.length, ...octets]);
}

/** The DER digest the signature covers: SHA-256 over the two byte ranges around /Contents. */
export function byteRangeDigest(pdf: Buffer, range: [number, number, number, number]): Buffer {
  return createHash('sha256')
    .update(pdf.subarray(range[0], range[0] + range[1]))
    .update(pdf.subarray(range[2], range[2] + range[3]))
    .digest();
}
