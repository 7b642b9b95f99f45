/**
 * CSCA master lists (ICAO 9303-12 §8): CMS SignedData with eContentType id-icao-cscaMasterList wrapping
 * CscaMasterList. The list signature is verified with the master list signer certificate, which must be
 * issued by one of the CSCA anchors given for the list (9303-12 §8.2: the signer is certified by a CSCA).
 */
import { Icao9303Error } from '../errors.js';
import { expectTlv, readTlv, readTlvList } from '../util/tlv.js';
import { OID } from '../asn1/oids.js';
import { checkSignerSignature } from '../pa/signerSignature.js';
import { parseSignedData } from '../sod/signedData.js';
import { DocumentCertificate } from './certificate.js';

export interface MasterListReport {
  certificates: DocumentCertificate[];
  signer: DocumentCertificate;
  signerIssuer: DocumentCertificate;
  signingTime?: Date;
  /** certificates in the list that could not be decoded, with the reason (skipped, not fatal) */
  skipped: Array<{ index: number; reason: string }>;
}

export interface MasterListOptions {
  /** CSCA certificates trusted to certify the master list signer */
  anchors: DocumentCertificate[];
  /** verification time for the signer certificate (default: the list's signingTime, else now) */
  at?: Date;
}

export function loadMasterList(bytes: Uint8Array, options: MasterListOptions): MasterListReport {
  const sd = parseSignedData(bytes, 'MasterList');
  if (sd.eContentType !== OID.cscaMasterList) {
    throw new Icao9303Error('MASTER_LIST_INVALID', 'MasterList.eContentType', `expected id-icao-cscaMasterList, found ${sd.eContentType} (9303-12 §8.1)`);
  }
  const sig = checkSignerSignature(sd, { expectedContentType: OID.cscaMasterList });
  if (!sig.ok || !sig.signer) throw new Icao9303Error('MASTER_LIST_INVALID', 'MasterList.signerInfo', sig.problems.join('; ') || 'signature invalid');
  const signer = sig.signer;
  const at = options.at ?? sig.signingTime ?? new Date();
  const signerIssuer = options.anchors.find((a) => signer.issuedBy(a));
  if (!signerIssuer)
    throw new Icao9303Error('MASTER_LIST_INVALID', 'MasterList.signer', `signer "${signer.subject}" is not issued by any given CSCA anchor (9303-12 §8.2)`);
  if (!signer.validAt(at)) throw new Icao9303Error('MASTER_LIST_INVALID', 'MasterList.signer', `signer certificate not valid at ${at.toISOString()}`);
  // CscaMasterList ::= SEQUENCE { version, certList SET OF Certificate } (9303-12 §8.1); keep original bytes
  // The list is only split into its certificates here (BER-TLV framing); each certificate is then decoded
  // by Node/OpenSSL. A full asn1js decode of ~600 certificates would cost ~0.6 s for nothing.
  const list = expectTlv(sd.eContent, 0x30, 'MasterList.CscaMasterList');
  const items = readTlvList(list.value, 'MasterList.CscaMasterList');
  if (items.length !== 2 || items[0].tag !== 0x02 || items[1].tag !== 0x31) {
    throw new Icao9303Error('MASTER_LIST_INVALID', 'MasterList.CscaMasterList', 'expected SEQUENCE { version INTEGER, certList SET OF Certificate }');
  }
  const certificates: DocumentCertificate[] = [];
  const skipped: MasterListReport['skipped'] = [];
  const certDers: Uint8Array[] = [];
  for (let p = 0; p < items[1].value.length;) {
    const t = readTlv(items[1].value, p, 'MasterList.certList');
    certDers.push(items[1].value.subarray(p, t.end));
    p = t.end;
  }
  certDers.forEach((der, i) => {
    try {
      certificates.push(DocumentCertificate.fromDer(der, `MasterList.certList[${i}]`));
    } catch (e) {
      if (!(e instanceof Icao9303Error)) throw e;
      skipped.push({ index: i, reason: e.message });
    }
  });
  return { certificates, signer, signerIssuer, signingTime: sig.signingTime, skipped };
}
