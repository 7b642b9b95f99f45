/**
 * EF.SOD (ICAO 9303-10 §4.6.2): application tag 77 wrapping a CMS ContentInfo (RFC 5652 §3) whose SignedData
 * encapsulates an LDSSecurityObject (v0 or v1). Parsing only; verification lives in ../pa.
 */
import { Icao9303Error, guard } from '../errors.js';
import { decode } from '../asn1/der.js';
import { HASH_BY_OID } from '../asn1/oids.js';
import { LdsSecurityObject } from '../asn1/schemas.js';
import { expectTlv } from '../util/tlv.js';
import { parseSignedData, type ParsedSignedData } from './signedData.js';

export type { ParsedSignedData };

export interface DataGroupHashEntry {
  dataGroup: number;
  hash: Uint8Array;
}

export interface Sod extends ParsedSignedData {
  ldsSecurityObject: {
    version: number;
    hashAlgorithmOid: string;
    /** Node digest name, e.g. 'sha256' */
    hashAlgorithm: string;
    dataGroupHashes: DataGroupHashEntry[];
    ldsVersion?: string;
    unicodeVersion?: string;
  };
}

export function parseSod(bytes: Uint8Array): Sod {
  const outer = guard('SOD_MALFORMED', 'EF.SOD', () => expectTlv(bytes, 0x77, 'EF.SOD'));
  const sd = parseSignedData(outer.value, 'EF.SOD');
  const lso = decode(sd.eContent, LdsSecurityObject, 'SOD_MALFORMED', 'EF.SOD.LDSSecurityObject');
  // 9303-10 §4.6.2.2: version v0 (no ldsVersionInfo) or v1 (with ldsVersionInfo)
  if (lso.version !== 0 && lso.version !== 1) throw new Icao9303Error('SOD_MALFORMED', 'EF.SOD.LDSSecurityObject.version', `unknown version ${lso.version}`);
  if (lso.version === 1 && !lso.ldsVersionInfo) throw new Icao9303Error('SOD_MALFORMED', 'EF.SOD.LDSSecurityObject.ldsVersionInfo', 'v1 requires ldsVersionInfo');
  const hashAlgorithm = HASH_BY_OID[lso.hashAlgorithm.algorithm];
  if (!hashAlgorithm) throw new Icao9303Error('ALGORITHM_UNSUPPORTED', 'EF.SOD.LDSSecurityObject.hashAlgorithm', `unknown hash ${lso.hashAlgorithm.algorithm}`);
  const seen = new Set<number>();
  const dataGroupHashes = lso.dataGroupHashValues.map((d) => {
    if (d.dataGroupNumber < 1 || d.dataGroupNumber > 16 || seen.has(d.dataGroupNumber)) {
      throw new Icao9303Error('SOD_MALFORMED', 'EF.SOD.LDSSecurityObject.dataGroupHashValues', `invalid or duplicate data group number ${d.dataGroupNumber}`);
    }
    seen.add(d.dataGroupNumber);
    return { dataGroup: d.dataGroupNumber, hash: new Uint8Array(d.dataGroupHashValue) };
  });
  return {
    ...sd,
    ldsSecurityObject: {
      version: lso.version,
      hashAlgorithmOid: lso.hashAlgorithm.algorithm,
      hashAlgorithm,
      dataGroupHashes,
      ldsVersion: lso.ldsVersionInfo?.ldsVersion,
      unicodeVersion: lso.ldsVersionInfo?.unicodeVersion,
    },
  };
}
