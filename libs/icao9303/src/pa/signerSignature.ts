/**
 * Passive authentication step (b): the SignerInfo of the SOD (RFC 5652 §5.4–5.6, ICAO 9303-10 §4.6.2.1):
 * contentType attribute equals eContentType, messageDigest equals the hash of the encapsulated content,
 * and the Document Signer's signature over the signed attributes verifies.
 */
import { createHash } from 'node:crypto';
import { OID, HASH_BY_OID } from '../asn1/oids.js';
import { resolveSignatureAlgorithm, verifyWith } from '../crypto/verifySignature.js';
import { DocumentCertificate } from '../pki/certificate.js';
import type { ParsedSignedData } from '../sod/signedData.js';
import { bytesEqual } from '../util/bytes.js';
import { Icao9303Error } from '../errors.js';

export interface SignerSignatureCheck {
  ok: boolean;
  /** eContentType is id-icao-ldsSecurityObject (or another expected type); id-data is tolerated with a warning */
  eContentTypeOk: boolean;
  contentTypeAttributeOk: boolean;
  messageDigestOk: boolean;
  signatureOk: boolean;
  signatureAlgorithm?: string;
  signer?: DocumentCertificate;
  signingTime?: Date;
  problems: string[];
  warnings: string[];
}

export interface SignerCheckOptions {
  /** eContentType required by the profile (default id-icao-ldsSecurityObject) */
  expectedContentType?: string;
  /** DS certificate to use when the SignedData carries none (9303-10 allows omitting it) */
  signerCertificate?: DocumentCertificate;
}

/* eslint-disable-next-line complexity -- the RFC 5652 / 9303-10 §4.6.2 signer checks collected into one report of
   problems and warnings; each branch adds one finding */
export function checkSignerSignature(sd: ParsedSignedData, options: SignerCheckOptions = {}): SignerSignatureCheck {
  const expected = options.expectedContentType ?? OID.ldsSecurityObject;
  const problems: string[] = [];
  const warnings: string[] = [];
  const si = sd.signerInfo;
  let eContentTypeOk = sd.eContentType === expected;
  if (!eContentTypeOk && sd.eContentType === OID.idData && expected === OID.ldsSecurityObject) {
    // Deviation seen in real documents (e.g. CN passports): id-data instead of id-icao-ldsSecurityObject.
    eContentTypeOk = true;
    warnings.push('eContentType is id-data instead of id-icao-ldsSecurityObject (9303-10 §4.6.2.2 deviation tolerated)');
  }
  if (!eContentTypeOk) problems.push(`eContentType ${sd.eContentType} is not ${expected} (9303-10 §4.6.2.2)`);
  if (sd.signerInfoCount !== 1) warnings.push(`${sd.signerInfoCount} SignerInfos; 9303-10 §4.6.2.1 expects one, the first is used`);

  const attrs = si.signedAttributes;
  let contentTypeAttributeOk = true;
  let messageDigestOk = true;
  const hash = HASH_BY_OID[si.digestAlgorithmOid];
  if (!hash) problems.push(`unsupported digest algorithm ${si.digestAlgorithmOid}`);
  if (attrs) {
    contentTypeAttributeOk = attrs.contentType === sd.eContentType;
    if (!contentTypeAttributeOk) problems.push('signed contentType attribute differs from eContentType (RFC 5652 §11.1)');
    messageDigestOk = !!hash && !!attrs.messageDigest && bytesEqual(new Uint8Array(createHash(hash).update(sd.eContent).digest()), attrs.messageDigest);
    if (!messageDigestOk) problems.push('messageDigest attribute does not match the hash of the LDSSecurityObject (RFC 5652 §11.2)');
  } else {
    warnings.push('no signed attributes: signature covers the eContent directly (RFC 5652 §5.4)');
  }

  const signer = options.signerCertificate ?? findSigner(sd);
  if (!signer) problems.push('no Document Signer certificate matching the SignerInfo sid (9303-10 §4.6.2.1)');
  let signatureOk = false;
  let signatureAlgorithm: string | undefined;
  if (signer) {
    try {
      const alg = resolveSignatureAlgorithm(si.signatureAlgorithm, si.digestAlgorithmOid, 'SignerInfo.signatureAlgorithm');
      signatureAlgorithm = `${alg.scheme}-${alg.hash}`;
      signatureOk = verifyWith(alg, signer.publicKey.key!, attrs ? attrs.der : sd.eContent, si.signature);
    } catch (e) {
      if (!(e instanceof Icao9303Error)) throw e;
      problems.push(e.message);
    }
    if (!signatureOk) problems.push('Document Signer signature over the signed attributes does not verify');
  }
  return {
    ok: eContentTypeOk && contentTypeAttributeOk && messageDigestOk && signatureOk,
    eContentTypeOk,
    contentTypeAttributeOk,
    messageDigestOk,
    signatureOk,
    signatureAlgorithm,
    signer,
    signingTime: attrs?.signingTime,
    problems,
    warnings,
  };
}

/** RFC 5652 §5.3 SignerIdentifier: issuerAndSerialNumber or subjectKeyIdentifier. */
export function findSigner(sd: ParsedSignedData): DocumentCertificate | undefined {
  const sid = sd.signerInfo.sid;
  const certs = sd.certificates.flatMap((der, i) => {
    try {
      return [DocumentCertificate.fromSod(der, `SignedData.certificates[${i}]`)];
    } catch (e) {
      if (e instanceof Icao9303Error) return []; // an undecodable certificate cannot be the signer
      throw e;
    }
  });
  const serialMatches = (cert: DocumentCertificate) => !!sid.serialNumber && bytesEqual(stripZero(sid.serialNumber), cert.serialNumber);
  for (const cert of certs) {
    if (sid.subjectKeyIdentifier && cert.subjectKeyIdentifier && bytesEqual(sid.subjectKeyIdentifier, cert.subjectKeyIdentifier)) return cert;
    if (sid.issuer && serialMatches(cert) && bytesEqual(sid.issuer, cert.issuerDer)) return cert;
  }
  // Some issuers encode the issuer name differently in sid and certificate; fall back to the only certificate.
  if (certs.length === 1 && serialMatches(certs[0])) return certs[0];
  // Several certificates: names equal once both have minimal lengths (as the DER re-encoding before did)
  if (sid.issuer) return certs.find((cert) => serialMatches(cert) && cert.issuerDerEquals(sid.issuer!));
  return undefined;
}

function stripZero(b: Uint8Array): Uint8Array {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  return b.subarray(i);
}
