/** EF.COM (ICAO 9303-10 §4.6.1): LDS version, Unicode version and the tag list of present data groups. */
import { Icao9303Error, guard } from '../errors.js';
import { ascii } from '../util/bytes.js';
import { expectTlv, findTlv, readTlvList } from '../util/tlv.js';
import { EF_COM_TAG, dataGroupForTag } from './tags.js';

export interface EfCom {
  /** e.g. "0107" as stored, and "1.7" for display */
  ldsVersionRaw: string;
  ldsVersion: string;
  unicodeVersionRaw: string;
  unicodeVersion: string;
  tagList: number[];
  dataGroups: number[];
}

export function parseEfCom(bytes: Uint8Array): EfCom {
  return guard('LDS_MALFORMED', 'EF.COM', () => {
    const outer = expectTlv(bytes, EF_COM_TAG, 'EF.COM');
    const items = readTlvList(outer.value, 'EF.COM');
    const lds = findTlv(items, 0x5f01);
    const uni = findTlv(items, 0x5f36);
    const tags = findTlv(items, 0x5c);
    if (!lds || !uni || !tags) throw new Icao9303Error('LDS_MALFORMED', 'EF.COM', 'missing 5F01, 5F36 or 5C (9303-10 §4.6.1)');
    const ldsRaw = ascii(lds.value);
    const uniRaw = ascii(uni.value);
    if (!/^\d{4}$/.test(ldsRaw)) throw new Icao9303Error('LDS_MALFORMED', 'EF.COM.ldsVersion', `"${ldsRaw}" is not aabb`);
    if (!/^\d{6}$/.test(uniRaw)) throw new Icao9303Error('LDS_MALFORMED', 'EF.COM.unicodeVersion', `"${uniRaw}" is not aabbcc`);
    const tagList = Array.from(tags.value);
    return {
      ldsVersionRaw: ldsRaw,
      ldsVersion: `${Number(ldsRaw.slice(0, 2))}.${Number(ldsRaw.slice(2))}`,
      unicodeVersionRaw: uniRaw,
      unicodeVersion: `${Number(uniRaw.slice(0, 2))}.${Number(uniRaw.slice(2, 4))}.${Number(uniRaw.slice(4))}`,
      tagList,
      dataGroups: tagList.map((t) => dataGroupForTag(t)).filter((d): d is number => d !== undefined),
    };
  });
}
