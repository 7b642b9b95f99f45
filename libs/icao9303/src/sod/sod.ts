/**
 * EF.SOD (ICAO 9303-10 §4.6.2): application tag 77 wrapping a CMS ContentInfo (RFC 5652 §3) whose SignedData
 * encapsulates an LDSSecurityObject (v0 or v1). Parsing only; verification lives in ../pa.
 */
import { Icao9303Error, guard } from '../errors.js';
import { DerReader, TAG } from '../asn1/derReader.js';
import { HASH_BY_OID } from '../asn1/oids.js';
import { expectTlv } from '../util/tlv.js';
import { algorithm, parseSignedData, type ParsedSignedData } from './signedData.js';

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
  return { ...sd, ldsSecurityObject: parseLdsSecurityObject(sd.eContent) };
}

/** LDSSecurityObject ::= SEQUENCE { version, hashAlgorithm, dataGroupHashValues SEQUENCE OF DataGroupHash, ldsVersionInfo OPTIONAL } (9303-10 §4.6.2.2) */
function parseLdsSecurityObject(eContent: Uint8Array): Sod['ldsSecurityObject'] {
  const r = new DerReader('SOD_MALFORMED', 'EF.SOD.LDSSecurityObject');
  const lso = r.children(r.one(eContent, 'LDSSecurityObject', TAG.SEQUENCE), 'LDSSecurityObject');
  const version = r.smallInt(lso[0], 'version');
  // 9303-10 §4.6.2.2: version v0 (no ldsVersionInfo) or v1 (with ldsVersionInfo)
  if (version !== 0 && version !== 1) throw new Icao9303Error('SOD_MALFORMED', 'EF.SOD.LDSSecurityObject.version', `unknown version ${version}`);
  const hashAlgorithmOid = algorithm(lso[1], r, 'hashAlgorithm').algorithm;
  const hashAlgorithm = HASH_BY_OID[hashAlgorithmOid];
  if (!hashAlgorithm) throw new Icao9303Error('ALGORITHM_UNSUPPORTED', 'EF.SOD.LDSSecurityObject.hashAlgorithm', `unknown hash ${hashAlgorithmOid}`);
  const seen = new Set<number>();
  const dataGroupHashes = r.children(r.expect(lso[2], TAG.SEQUENCE, 'dataGroupHashValues'), 'dataGroupHashValues').map((node) => {
    // DataGroupHash ::= SEQUENCE { dataGroupNumber INTEGER, dataGroupHashValue OCTET STRING }
    const d = r.children(r.expect(node, TAG.SEQUENCE, 'dataGroupHashValues'), 'dataGroupHashValues');
    if (d.length !== 2) r.fail('dataGroupHashValues', 'expected SEQUENCE { dataGroupNumber, dataGroupHashValue }');
    const dataGroup = d[0].tag === TAG.INTEGER && d[0].value.length <= 2 && (d[0].value[0] & 0x80) === 0 ? r.smallInt(d[0], 'dataGroupNumber') : -1;
    if (dataGroup < 1 || dataGroup > 16 || seen.has(dataGroup)) {
      throw new Icao9303Error('SOD_MALFORMED', 'EF.SOD.LDSSecurityObject.dataGroupHashValues', `invalid or duplicate data group number ${dataGroup}`);
    }
    seen.add(dataGroup);
    return { dataGroup, hash: r.octets(d[1], 'dataGroupHashValue').slice() };
  });
  let ldsVersion: string | undefined;
  let unicodeVersion: string | undefined;
  if (lso[3]) {
    // LDSVersionInfo ::= SEQUENCE { ldsVersion PrintableString, unicodeVersion PrintableString }
    const v = r.children(r.expect(lso[3], TAG.SEQUENCE, 'ldsVersionInfo'), 'ldsVersionInfo');
    if (v.length !== 2) r.fail('ldsVersionInfo', 'expected SEQUENCE { ldsVersion, unicodeVersion }');
    [ldsVersion, unicodeVersion] = v.map((x) => Buffer.from(r.expect(x, PRINTABLE_STRING, 'ldsVersionInfo').value).toString('latin1'));
  }
  if (lso.length > 4) r.fail('LDSSecurityObject', 'unexpected element after ldsVersionInfo');
  if (version === 1 && ldsVersion === undefined)
    throw new Icao9303Error('SOD_MALFORMED', 'EF.SOD.LDSSecurityObject.ldsVersionInfo', 'v1 requires ldsVersionInfo');
  return { version, hashAlgorithmOid, hashAlgorithm, dataGroupHashes, ldsVersion, unicodeVersion };
}

const PRINTABLE_STRING = 0x13;
