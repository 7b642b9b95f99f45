/**
 * Builds TD1 (9303-5) and TD3 (9303-4) MRZ strings with check digits, for specimen documents.
 * Names are transliterated only minimally (upper case, spaces/hyphens → '<'); callers pass Latin names.
 */
import { Icao9303Error } from '../errors.js';
import { computeCheckDigit } from './checkDigit.js';

export interface MrzFields {
  documentCode?: string;
  issuingState: string;
  surname: string;
  givenNames: string;
  documentNumber: string;
  nationality: string;
  /** YYMMDD */
  dateOfBirth: string;
  sex: 'M' | 'F' | '<';
  /** YYMMDD */
  dateOfExpiry: string;
  optionalData?: string;
}

const field = (s: string, len: number, name: string) => {
  const v = s.toUpperCase().replace(/[\s\-']/g, '<');
  if (!/^[A-Z0-9<]*$/.test(v)) throw new Icao9303Error('MRZ_FORMAT', name, `"${s}" has characters outside A-Z 0-9 < (9303-3 §4.3)`);
  if (v.length > len) throw new Icao9303Error('MRZ_FORMAT', name, `longer than ${len} characters`);
  return v.padEnd(len, '<');
};
const date = (s: string, name: string) => {
  if (!/^\d{6}$/.test(s)) throw new Icao9303Error('MRZ_FORMAT', name, 'must be YYMMDD');
  return s;
};
const nameField = (f: MrzFields, len: number) => {
  const full = `${f.surname.toUpperCase().replace(/[\s\-']/g, '<')}<<${f.givenNames.toUpperCase().replace(/[\s\-']/g, '<')}`;
  return field(full.slice(0, len), len, 'name');
};

export function buildTd3(f: MrzFields): string {
  const l1 = field(f.documentCode ?? 'P', 2, 'documentCode') + field(f.issuingState, 3, 'issuingState') + nameField(f, 39);
  const num = field(f.documentNumber, 9, 'documentNumber');
  const opt = field(f.optionalData ?? '', 14, 'optionalData');
  const dob = date(f.dateOfBirth, 'dateOfBirth');
  const doe = date(f.dateOfExpiry, 'dateOfExpiry');
  const optCd = /^<*$/.test(opt) ? '<' : computeCheckDigit(opt);
  const body = `${num}${computeCheckDigit(num)}${field(f.nationality, 3, 'nationality')}${dob}${computeCheckDigit(dob)}${f.sex}${doe}${computeCheckDigit(doe)}${opt}${optCd}`;
  // 9303-4 §4.2.2.2 composite over positions 1–10, 14–20, 22–43
  const composite = computeCheckDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43));
  return l1 + body + composite;
}

export function buildTd1(f: MrzFields): string {
  const num = field(f.documentNumber, 9, 'documentNumber');
  const l1 =
    field(f.documentCode ?? 'ID', 2, 'documentCode') +
    field(f.issuingState, 3, 'issuingState') +
    num +
    computeCheckDigit(num) +
    field(f.optionalData ?? '', 15, 'optionalData');
  const dob = date(f.dateOfBirth, 'dateOfBirth');
  const doe = date(f.dateOfExpiry, 'dateOfExpiry');
  const l2a = `${dob}${computeCheckDigit(dob)}${f.sex}${doe}${computeCheckDigit(doe)}${field(f.nationality, 3, 'nationality')}${'<'.repeat(11)}`;
  // 9303-5 §4.2.2.1 composite over line 1 pos 6–30 and line 2 pos 1–7, 9–15, 19–29
  const composite = computeCheckDigit(l1.slice(5, 30) + l2a.slice(0, 7) + l2a.slice(8, 15) + l2a.slice(18, 29));
  return l1 + l2a + composite + nameField(f, 30);
}
