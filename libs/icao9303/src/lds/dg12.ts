/** DG12 additional document details (ICAO 9303-10 §4.7.12). */
import { guard } from '../errors.js';
import { utf8 } from '../util/bytes.js';
import { expectTlv, findTlv, readTlvList } from '../util/tlv.js';
import { readTagList } from './dg11.js';

export interface Dg12 {
  tagList: number[];
  issuingAuthority?: string;
  /** yyyymmdd */
  dateOfIssue?: string;
  otherPersons: string[];
  endorsements?: string;
  taxExitRequirements?: string;
  imageOfFront?: Uint8Array;
  imageOfRear?: Uint8Array;
  /** yyyymmddhhmmss */
  personalizationDateTime?: string;
  personalizationSystemSerialNumber?: string;
}

export function parseDg12(bytes: Uint8Array): Dg12 {
  return guard('LDS_MALFORMED', 'DG12', () => {
    const outer = expectTlv(bytes, 0x6c, 'DG12');
    const items = readTlvList(outer.value, 'DG12');
    const text = (tag: number) => {
      const t = findTlv(items, tag);
      return t ? utf8(t.value) : undefined;
    };
    const tagListTlv = findTlv(items, 0x5c);
    const others: string[] = [];
    for (const t of items) {
      if (t.tag === 0xa0) for (const c of readTlvList(t.value, 'DG12.A0')) if (c.tag === 0x5f1a) others.push(utf8(c.value));
      if (t.tag === 0x5f1a) others.push(utf8(t.value));
    }
    return {
      tagList: tagListTlv ? readTagList(tagListTlv.value) : [],
      issuingAuthority: text(0x5f19),
      dateOfIssue: text(0x5f26),
      otherPersons: others,
      endorsements: text(0x5f1b),
      taxExitRequirements: text(0x5f1c),
      imageOfFront: findTlv(items, 0x5f1d)?.value.slice(),
      imageOfRear: findTlv(items, 0x5f1e)?.value.slice(),
      personalizationDateTime: text(0x5f55),
      personalizationSystemSerialNumber: text(0x5f56),
    };
  });
}
