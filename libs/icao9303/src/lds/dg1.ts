/** DG1 (ICAO 9303-10 §4.7.1): tag 61 wrapping 5F1F, the MRZ as printed. */
import { guard } from '../errors.js';
import { ascii } from '../util/bytes.js';
import { expectTlv } from '../util/tlv.js';
import { parseMrz, type Mrz } from '../mrz/mrz.js';

export interface Dg1 {
  mrz: Mrz;
}

/** Parses leniently: wrong check digits are reported in `mrz.checkDigits`, not thrown (the chip data is signed). */
export function parseDg1(bytes: Uint8Array): Dg1 {
  return guard('LDS_MALFORMED', 'DG1', () => {
    const outer = expectTlv(bytes, 0x61, 'DG1');
    const mrzTlv = expectTlv(outer.value, 0x5f1f, 'DG1.5F1F');
    return { mrz: parseMrz(ascii(mrzTlv.value), { strict: false }) };
  });
}
