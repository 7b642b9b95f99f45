/** Dispatches an LDS file to its parser by its first tag (ICAO 9303-10 §4.6 Table 34). */
import { Icao9303Error } from '../errors.js';
import { parseEfCom, type EfCom } from './com.js';
import { parseDg1, type Dg1 } from './dg1.js';
import { parseDg2, type Dg2 } from './dg2.js';
import { parseDg11, type Dg11 } from './dg11.js';
import { parseDg12, type Dg12 } from './dg12.js';
import { parseDg14, type Dg14 } from './dg14.js';
import { parseDg15, type Dg15 } from './dg15.js';
import { parseCardSecurity, type CardSecurity } from './cardSecurity.js';
import { parseSod, type Sod } from '../sod/sod.js';

export type LdsFile =
  | { kind: 'EF.COM'; value: EfCom }
  | { kind: 'DG1'; value: Dg1 }
  | { kind: 'DG2'; value: Dg2 }
  | { kind: 'DG11'; value: Dg11 }
  | { kind: 'DG12'; value: Dg12 }
  | { kind: 'DG14'; value: Dg14 }
  | { kind: 'DG15'; value: Dg15 }
  | { kind: 'EF.SOD'; value: Sod }
  | { kind: 'EF.CardSecurity'; value: CardSecurity };

export function parseLdsFile(bytes: Uint8Array): LdsFile {
  if (bytes.length === 0) throw new Icao9303Error('LDS_MALFORMED', 'file', 'empty file');
  switch (bytes[0]) {
    case 0x60:
      return { kind: 'EF.COM', value: parseEfCom(bytes) };
    case 0x61:
      return { kind: 'DG1', value: parseDg1(bytes) };
    case 0x75:
      return { kind: 'DG2', value: parseDg2(bytes) };
    case 0x6b:
      return { kind: 'DG11', value: parseDg11(bytes) };
    case 0x6c:
      return { kind: 'DG12', value: parseDg12(bytes) };
    case 0x6e:
      return { kind: 'DG14', value: parseDg14(bytes) };
    case 0x6f:
      return { kind: 'DG15', value: parseDg15(bytes) };
    case 0x77:
      return { kind: 'EF.SOD', value: parseSod(bytes) };
    case 0x30:
      return { kind: 'EF.CardSecurity', value: parseCardSecurity(bytes) };
    default:
      throw new Icao9303Error('LDS_MALFORMED', 'file', `unsupported LDS file tag ${bytes[0].toString(16).toUpperCase()}`);
  }
}
