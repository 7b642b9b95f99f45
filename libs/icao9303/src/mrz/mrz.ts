/**
 * MRZ parsing for TD1 (9303-5 §4.2), TD2 (9303-6 §4.2) and TD3 (9303-4 §4.2), including the
 * long document number rule (9303-5 §4.2.2 note j / 9303-6 §4.2.2.2: check digit position holds '<'
 * and the number continues in the optional data, ending with its check digit).
 */
import { Icao9303Error } from '../errors.js';
import { charValue, checkDigitMatches, computeCheckDigit } from './checkDigit.js';

export type MrzFormat = 'TD1' | 'TD2' | 'TD3';

export interface MrzCheckDigits {
  documentNumber: boolean;
  dateOfBirth: boolean;
  dateOfExpiry: boolean;
  /** TD3 only: personal number / optional data (9303-4 §4.2.2) */
  optionalData?: boolean;
  composite: boolean;
}

export interface Mrz {
  format: MrzFormat;
  lines: string[];
  documentCode: string;
  issuingState: string;
  primaryIdentifier: string;
  secondaryIdentifier: string;
  documentNumber: string;
  nationality: string;
  /** YYMMDD as printed (may contain '<' for unknown parts) */
  dateOfBirth: string;
  sex: string;
  /** YYMMDD */
  dateOfExpiry: string;
  /** TD2/TD3 optional data; TD1 optional data of line 1 (after a long document number is removed) */
  optionalData: string;
  /** TD1 line 2 optional data */
  optionalData2?: string;
  checkDigits: MrzCheckDigits;
  /** true when every check digit is correct */
  valid: boolean;
  /** Document number, date of birth, date of expiry with check digits: the BAC key seed input (9303-11 §9.7.2/App. D.2) */
  mrzInformation: string;
}

export interface ParseMrzOptions {
  /** Throw Icao9303Error('MRZ_CHECK_DIGIT') on the first wrong check digit (default true). */
  strict?: boolean;
}

const LAYOUTS: Record<number, { format: MrzFormat; lines: number; width: number }> = {
  90: { format: 'TD1', lines: 3, width: 30 },
  72: { format: 'TD2', lines: 2, width: 36 },
  88: { format: 'TD3', lines: 2, width: 44 },
};

/** Accepts the MRZ as one string (lines concatenated) or with line breaks. */
export function parseMrz(input: string, options: ParseMrzOptions = {}): Mrz {
  const text = input.replace(/[\r\n\s]+/g, '');
  const layout = LAYOUTS[text.length];
  if (!layout) {
    throw new Icao9303Error('MRZ_FORMAT', 'MRZ', `length ${text.length} matches no TD1 (90), TD2 (72) or TD3 (88) layout`);
  }
  for (const c of text) charValue(c);
  const lines = Array.from({ length: layout.lines }, (_, i) => text.slice(i * layout.width, (i + 1) * layout.width));
  const mrz = layout.format === 'TD1' ? parseTd1(lines) : parseTd23(lines, layout.format);
  if (options.strict !== false) {
    for (const [name, ok] of Object.entries(mrz.checkDigits)) {
      if (ok === false) throw new Icao9303Error('MRZ_CHECK_DIGIT', name, `check digit is wrong (9303-3 §4.9) in ${mrz.format} MRZ`);
    }
  }
  return mrz;
}

function clean(s: string): string {
  return s.replace(/<+$/, '').replace(/</g, ' ').trim();
}

function splitName(field: string): { primary: string; secondary: string } {
  const idx = field.indexOf('<<');
  if (idx < 0) return { primary: clean(field), secondary: '' };
  return { primary: clean(field.slice(0, idx)), secondary: clean(field.slice(idx + 2)) };
}

/** 9303-5 §4.2.2 note j: document number longer than 9 characters. */
function documentNumber(num9: string, cd: string, optional: string): { number: string; cd: string; rest: string } {
  if (cd !== '<') return { number: num9.replace(/<+$/, ''), cd, rest: optional };
  const end = optional.indexOf('<');
  const ext = end < 0 ? optional : optional.slice(0, end);
  if (ext.length < 1) return { number: num9.replace(/<+$/, ''), cd, rest: optional };
  return { number: num9 + ext.slice(0, -1), cd: ext.slice(-1), rest: end < 0 ? '' : optional.slice(end) };
}

function build(
  format: MrzFormat,
  lines: string[],
  f: {
    code: string;
    state: string;
    name: string;
    num: { number: string; cd: string; rest: string };
    nat: string;
    dob: string;
    dobCd: string;
    sex: string;
    doe: string;
    doeCd: string;
  },
  optionalData: string,
  composite: boolean,
  extra: { optionalData2?: string; optionalDataCd?: boolean },
): Mrz {
  const { primary, secondary } = splitName(f.name);
  const checkDigits: MrzCheckDigits = {
    documentNumber: f.num.cd !== '<' && checkDigitMatches(f.num.number.padEnd(9, '<'), f.num.cd),
    dateOfBirth: checkDigitMatches(f.dob, f.dobCd),
    dateOfExpiry: checkDigitMatches(f.doe, f.doeCd),
    ...(extra.optionalDataCd === undefined ? {} : { optionalData: extra.optionalDataCd }),
    composite,
  };
  return {
    format,
    lines,
    documentCode: clean(f.code),
    issuingState: clean(f.state),
    primaryIdentifier: primary,
    secondaryIdentifier: secondary,
    documentNumber: f.num.number,
    nationality: clean(f.nat),
    dateOfBirth: f.dob,
    sex: f.sex,
    dateOfExpiry: f.doe,
    optionalData: clean(optionalData),
    ...(extra.optionalData2 === undefined ? {} : { optionalData2: clean(extra.optionalData2) }),
    checkDigits,
    valid: Object.values(checkDigits).every((v) => v !== false),
    mrzInformation: `${f.num.number.padEnd(9, '<')}${f.num.cd}${f.dob}${f.dobCd}${f.doe}${f.doeCd}`,
  };
}

function parseTd1(lines: string[]): Mrz {
  const [l1, l2, l3] = lines;
  const num = documentNumber(l1.slice(5, 14), l1[14], l1.slice(15, 30));
  // 9303-5 §4.2.2.1: composite over line 1 pos 6–30, line 2 pos 1–7, 9–15, 19–29
  const compositeData = l1.slice(5, 30) + l2.slice(0, 7) + l2.slice(8, 15) + l2.slice(18, 29);
  return build(
    'TD1',
    lines,
    {
      code: l1.slice(0, 2),
      state: l1.slice(2, 5),
      name: l3,
      num,
      nat: l2.slice(15, 18),
      dob: l2.slice(0, 6),
      dobCd: l2[6],
      sex: l2[7],
      doe: l2.slice(8, 14),
      doeCd: l2[14],
    },
    num.rest,
    checkDigitMatches(compositeData, l2[29]),
    { optionalData2: l2.slice(18, 29) },
  );
}

function parseTd23(lines: string[], format: 'TD2' | 'TD3'): Mrz {
  const [l1, l2] = lines;
  const optEnd = format === 'TD3' ? 42 : 35;
  const optional = l2.slice(28, optEnd);
  // TD2 long document number overflows into optional data (9303-6 §4.2.2.2); TD3 has none.
  const num = format === 'TD2' ? documentNumber(l2.slice(0, 9), l2[9], optional) : { number: l2.slice(0, 9).replace(/<+$/, ''), cd: l2[9], rest: optional };
  // 9303-4 §4.2.2.2 / 9303-6 §4.2.2.2: composite over pos 1–10, 14–20, 22–43 (TD3) / 22–35 (TD2)
  const compositeData = l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, format === 'TD3' ? 43 : 35);
  const compositeDigit = format === 'TD3' ? l2[43] : l2[35];
  return build(
    format,
    lines,
    {
      code: l1.slice(0, 2),
      state: l1.slice(2, 5),
      name: l1.slice(5),
      num,
      nat: l2.slice(10, 13),
      dob: l2.slice(13, 19),
      dobCd: l2[19],
      sex: l2[20],
      doe: l2.slice(21, 27),
      doeCd: l2[27],
    },
    num.rest,
    checkDigitMatches(compositeData, compositeDigit),
    format === 'TD3' ? { optionalDataCd: checkDigitMatches(optional, l2[42], true) } : {},
  );
}

/** Builds the MRZ information used for BAC key derivation (9303-11 §9.7.2 / App. D.2). */
export function mrzInformation(documentNumber: string, dateOfBirth: string, dateOfExpiry: string): string {
  const num = documentNumber.padEnd(9, '<');
  return `${num}${computeCheckDigit(num)}${dateOfBirth}${computeCheckDigit(dateOfBirth)}${dateOfExpiry}${computeCheckDigit(dateOfExpiry)}`;
}
