/**
 * DG2 encoded face (ICAO 9303-10 §4.7.2): 75 { 7F61 { 02 count, 7F60 { A1 BHT, 5F2E|7F2E data }… } }.
 * 5F2E carries an ISO/IEC 19794-5 record, 7F2E an ISO/IEC 39794-5 record.
 */
import { Icao9303Error, guard } from '../errors.js';
import { toHex } from '../util/bytes.js';
import { expectTlv, findTlv, readTlvList } from '../util/tlv.js';
import { parseIso19794FaceRecord, type FaceImage } from './biometric/iso19794.js';
import { parseIso39794FaceRecord } from './biometric/iso39794.js';

export interface Dg2 {
  faces: Array<FaceImage & { biometricHeader: Record<string, string> }>;
}

/** Biometric header template element names (ISO/IEC 7816-11 Table 5, as used by 9303-10 §4.7.2.2). */
const BHT_NAMES: Record<number, string> = {
  0x80: 'icaoHeaderVersion',
  0x81: 'biometricType',
  0x82: 'biometricSubtype',
  0x83: 'creationDateTime',
  0x85: 'validityPeriod',
  0x86: 'creatorOfTemplate',
  0x87: 'formatOwner',
  0x88: 'formatType',
};

export function parseDg2(bytes: Uint8Array): Dg2 {
  return guard('LDS_MALFORMED', 'DG2', () => {
    const outer = expectTlv(bytes, 0x75, 'DG2');
    const group = expectTlv(outer.value, 0x7f61, 'DG2.7F61');
    const items = readTlvList(group.value, 'DG2.7F61');
    const count = findTlv(items, 0x02);
    const templates = items.filter((t) => t.tag === 0x7f60);
    if (!count || count.value.length !== 1 || count.value[0] !== templates.length) {
      throw new Icao9303Error('LDS_MALFORMED', 'DG2.7F61.02', `instance count does not match ${templates.length} biometric templates`);
    }
    const faces: Dg2['faces'] = [];
    for (const tpl of templates) {
      const parts = readTlvList(tpl.value, 'DG2.7F60');
      const bht = findTlv(parts, 0xa1);
      const header: Record<string, string> = {};
      for (const e of bht ? readTlvList(bht.value, 'DG2.A1') : []) header[BHT_NAMES[e.tag] ?? e.tag.toString(16)] = toHex(e.value);
      const legacy = findTlv(parts, 0x5f2e);
      const modern = findTlv(parts, 0x7f2e);
      if (legacy) faces.push(...parseIso19794FaceRecord(legacy.value).map((f) => ({ ...f, biometricHeader: header })));
      else if (modern) faces.push(...parseIso39794FaceRecord(modern.value).map((f) => ({ ...f, biometricHeader: header })));
      else throw new Icao9303Error('LDS_MALFORMED', 'DG2.7F60', 'biometric template without data block 5F2E or 7F2E');
    }
    return { faces };
  });
}
