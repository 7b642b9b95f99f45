/** ICAO 9303-3 §4.9: check digit with weights 7,3,1; digits face value, A–Z = 10–35, filler '<' = 0. */
import { Icao9303Error } from '../errors.js';

export function charValue(c: string): number {
  if (c >= '0' && c <= '9') return c.charCodeAt(0) - 48;
  if (c >= 'A' && c <= 'Z') return c.charCodeAt(0) - 55;
  if (c === '<') return 0;
  throw new Icao9303Error('MRZ_FORMAT', 'MRZ', `character '${c}' is not allowed in an MRZ (9303-3 §4.3)`);
}

export function computeCheckDigit(data: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum += charValue(data[i]) * weights[i % 3];
  return String(sum % 10);
}

/**
 * A filler '<' in a check-digit position counts as 0 only where 9303-4 §4.2.2 allows it
 * (optional/personal-number field that is entirely filler).
 */
export function checkDigitMatches(data: string, digit: string, fillerAllowedWhenEmpty = false): boolean {
  if (fillerAllowedWhenEmpty && digit === '<' && /^<*$/.test(data)) return true;
  return computeCheckDigit(data) === digit;
}
