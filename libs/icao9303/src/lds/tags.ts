/** LDS elementary file tags and data group numbering (ICAO 9303-10 §4.6, Table 34). */
export const DG_TAGS: Record<number, number> = {
  1: 0x61,
  2: 0x75,
  3: 0x63,
  4: 0x76,
  5: 0x65,
  6: 0x66,
  7: 0x67,
  8: 0x68,
  9: 0x69,
  10: 0x6a,
  11: 0x6b,
  12: 0x6c,
  13: 0x6d,
  14: 0x6e,
  15: 0x6f,
  16: 0x70,
};
export const EF_COM_TAG = 0x60;

export function dataGroupForTag(tag: number): number | undefined {
  for (const [dg, t] of Object.entries(DG_TAGS)) if (t === tag) return Number(dg);
  return undefined;
}

/** Short EF identifiers / file IDs used by SELECT (9303-10 §4.6.1 Table 34). */
export const FILE_IDS: Record<string, number> = {
  COM: 0x011e,
  SOD: 0x011d,
  CardAccess: 0x011c,
  CardSecurity: 0x011d,
  DG1: 0x0101,
  DG2: 0x0102,
  DG3: 0x0103,
  DG4: 0x0104,
  DG5: 0x0105,
  DG6: 0x0106,
  DG7: 0x0107,
  DG8: 0x0108,
  DG9: 0x0109,
  DG10: 0x010a,
  DG11: 0x010b,
  DG12: 0x010c,
  DG13: 0x010d,
  DG14: 0x010e,
  DG15: 0x010f,
  DG16: 0x0110,
};
