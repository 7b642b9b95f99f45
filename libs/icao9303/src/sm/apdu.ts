/** Short command APDUs (ISO/IEC 7816-4 §5.1); extended length is not used by this library. */
import { Icao9303Error } from '../errors.js';

export interface CommandApdu {
  cla: number;
  ins: number;
  p1: number;
  p2: number;
  data: Uint8Array;
  /** expected response length; undefined = no Le; 0 means 256 */
  le?: number;
}

export function encodeCommand(c: CommandApdu): Uint8Array {
  const out = [c.cla, c.ins, c.p1, c.p2];
  if (c.data.length > 255) throw new Icao9303Error('INVALID_ARGUMENT', 'APDU', 'extended-length APDUs are not supported');
  if (c.data.length) out.push(c.data.length, ...c.data);
  if (c.le !== undefined) out.push(c.le & 0xff);
  return new Uint8Array(out);
}

export function decodeCommand(apdu: Uint8Array): CommandApdu {
  if (apdu.length < 4) throw new Icao9303Error('INVALID_ARGUMENT', 'APDU', 'shorter than a header');
  const [cla, ins, p1, p2] = apdu;
  if (apdu.length === 4) return { cla, ins, p1, p2, data: new Uint8Array(0) };
  if (apdu.length === 5) return { cla, ins, p1, p2, data: new Uint8Array(0), le: apdu[4] };
  const lc = apdu[4];
  if (apdu.length === 5 + lc) return { cla, ins, p1, p2, data: apdu.slice(5, 5 + lc) };
  if (apdu.length === 6 + lc) return { cla, ins, p1, p2, data: apdu.slice(5, 5 + lc), le: apdu[5 + lc] };
  throw new Icao9303Error('INVALID_ARGUMENT', 'APDU', `length ${apdu.length} inconsistent with Lc ${lc}`);
}

export interface ResponseApdu {
  data: Uint8Array;
  sw: number;
}

export function decodeResponse(r: Uint8Array): ResponseApdu {
  if (r.length < 2) throw new Icao9303Error('CHIP_ERROR', 'response APDU', 'missing status word');
  return { data: r.slice(0, -2), sw: (r[r.length - 2] << 8) | r[r.length - 1] };
}

export function encodeResponse(data: Uint8Array, sw: number): Uint8Array {
  const out = new Uint8Array(data.length + 2);
  out.set(data);
  out[data.length] = sw >> 8;
  out[data.length + 1] = sw & 0xff;
  return out;
}
