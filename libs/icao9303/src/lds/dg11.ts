/**
 * DG11 additional personal details (ICAO 9303-10 §4.7.11). Tolerates the "other names" deviations
 * seen in real documents: tag list naming A0 instead of 5F0F, and 5F0F not wrapped in A0.
 */
import { guard } from '../errors.js';
import { utf8 } from '../util/bytes.js';
import { expectTlv, findTlv, readTlvList, type Tlv } from '../util/tlv.js';

export interface Dg11Name {
  raw: string;
  primaryIdentifier: string;
  secondaryIdentifier: string;
}

export interface Dg11 {
  tagList: number[];
  fullName?: Dg11Name;
  otherNames: Dg11Name[];
  personalNumber?: string;
  /** yyyymmdd as stored */
  fullDateOfBirth?: string;
  placeOfBirth?: string;
  address?: string;
  telephone?: string;
  profession?: string;
  title?: string;
  personalSummary?: string;
  proofOfCitizenship?: Uint8Array;
  otherValidTdNumbers?: string[];
  custodyInformation?: string;
}

/** '<' separates name components; "SMITH<<JOHN<J" → SMITH / JOHN J (9303-10 §4.7.11 note a). */
function name(raw: string): Dg11Name {
  const idx = raw.indexOf('<<');
  const tidy = (s: string) => s.replace(/</g, ' ').trim();
  return idx < 0
    ? { raw, primaryIdentifier: tidy(raw), secondaryIdentifier: '' }
    : { raw, primaryIdentifier: tidy(raw.slice(0, idx)), secondaryIdentifier: tidy(raw.slice(idx + 2)) };
}
/** Components of place of birth / address are separated by '<' (9303-10 §4.7.11). */
const components = (s: string) =>
  s
    .split('<')
    .map((x) => x.trim())
    .filter(Boolean)
    .join(',');
const words = (s: string) => s.replace(/</g, ' ').trim();

export function parseDg11(bytes: Uint8Array): Dg11 {
  return guard('LDS_MALFORMED', 'DG11', () => {
    const outer = expectTlv(bytes, 0x6b, 'DG11');
    const items = readTlvList(outer.value, 'DG11');
    const tagListTlv = findTlv(items, 0x5c);
    const tagList = tagListTlv ? readTagList(tagListTlv.value) : [];
    const text = (tag: number) => {
      const t = findTlv(items, tag);
      return t ? utf8(t.value) : undefined;
    };
    const otherNames: string[] = [];
    for (const t of items) {
      if (t.tag === 0xa0) otherNames.push(...otherNamesFromA0(t));
      if (t.tag === 0x5f0f) otherNames.push(utf8(t.value)); // deviation: not wrapped in A0
    }
    const full = text(0x5f0e);
    const pob = text(0x5f11);
    const addr = text(0x5f42);
    const prof = text(0x5f13);
    const title = text(0x5f14);
    const tdNumbers = text(0x5f17);
    const proof = findTlv(items, 0x5f16);
    return {
      tagList,
      ...(full === undefined ? {} : { fullName: name(full) }),
      otherNames: otherNames.map(name),
      personalNumber: text(0x5f10),
      fullDateOfBirth: text(0x5f2b),
      placeOfBirth: pob === undefined ? undefined : components(pob),
      address: addr === undefined ? undefined : components(addr),
      telephone: text(0x5f12),
      profession: prof === undefined ? undefined : words(prof),
      title: title === undefined ? undefined : words(title),
      personalSummary: text(0x5f15),
      proofOfCitizenship: proof?.value.slice(),
      otherValidTdNumbers: tdNumbers === undefined ? undefined : tdNumbers.split('<').filter(Boolean),
      custodyInformation: text(0x5f18),
    };
  });
}

/** A0 { 02 count, 5F0F name... } (9303-10 §4.7.11, "Other Name(s)" template). */
function otherNamesFromA0(t: Tlv): string[] {
  return readTlvList(t.value, 'DG11.A0')
    .filter((c) => c.tag === 0x5f0f)
    .map((c) => utf8(c.value));
}

/** Tag list 5C holds concatenated BER tags (1 or 2 bytes each). */
export function readTagList(v: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < v.length; i++) {
    if ((v[i] & 0x1f) === 0x1f && i + 1 < v.length) {
      out.push(v[i] * 256 + v[i + 1]);
      i++;
    } else out.push(v[i]);
  }
  return out;
}
