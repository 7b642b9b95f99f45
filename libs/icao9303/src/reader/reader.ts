/**
 * Reading the chip (terminal side, for a future SDK): application selection, BAC session set-up and
 * SELECT + READ BINARY of an elementary file (ICAO 9303-10 §3.6, 9303-11 §4.3), over any transport that
 * exchanges APDUs, optionally through secure messaging (9303-11 §9.8).
 */
import { randomBytes } from 'node:crypto';
import { Icao9303Error } from '../errors.js';
import { concat } from '../util/bytes.js';
import { decodeResponse, encodeCommand, type CommandApdu } from '../sm/apdu.js';
import { buildMutualAuth, completeMutualAuth, deriveBacKeys } from '../sm/bac.js';
import { SecureMessaging } from '../sm/secureMessaging.js';

/** Anything that can send a command APDU to the chip and return its response APDU (data || SW1 SW2). */
export interface ApduTransport {
  transmit(apdu: Uint8Array): Promise<Uint8Array>;
}

/** eMRTD LDS1 application identifier (9303-10 §3.6.2). */
export const LDS1_AID = new Uint8Array([0xa0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]);

const SW_OK = 0x9000;
const SW_END_OF_FILE = 0x6282;
/** READ BINARY with P1 b8 = 0 addresses offsets up to 32767 (ISO/IEC 7816-4 §11.3.3). */
const MAX_SHORT_OFFSET = 0x7fff;

export async function exchange(transport: ApduTransport, command: CommandApdu, sm?: SecureMessaging): Promise<{ data: Uint8Array; sw: number }> {
  const raw = sm ? sm.protectCommand(command) : encodeCommand(command);
  let response: Uint8Array;
  try {
    response = await transport.transmit(raw);
  } catch (e) {
    throw new Icao9303Error('CHIP_ERROR', 'transport', e instanceof Error ? e.message : String(e), { cause: e });
  }
  const plain = decodeResponse(response);
  // A plain status word instead of SM objects means the chip rejected the command (e.g. 6987/6988 SM errors)
  if (sm && plain.data.length === 0 && plain.sw !== SW_OK) return plain;
  return sm ? sm.unprotectResponse(response) : plain;
}

function ensureOk(r: { sw: number }, what: string, allowed: number[] = [SW_OK]): void {
  if (!allowed.includes(r.sw)) throw new Icao9303Error('CHIP_ERROR', what, `status word ${r.sw.toString(16).toUpperCase().padStart(4, '0')}`);
}

export async function selectApplication(transport: ApduTransport): Promise<void> {
  ensureOk(await exchange(transport, { cla: 0x00, ins: 0xa4, p1: 0x04, p2: 0x0c, data: LDS1_AID }), 'SELECT eMRTD application');
}

/** BAC (9303-11 §4.3): GET CHALLENGE, EXTERNAL AUTHENTICATE, session keys → secure messaging. */
export async function openBacSession(
  transport: ApduTransport,
  mrzInformation: string,
  random: (n: number) => Uint8Array = (n) => new Uint8Array(randomBytes(n)),
): Promise<SecureMessaging> {
  const keys = deriveBacKeys(mrzInformation);
  const challenge = await exchange(transport, { cla: 0x00, ins: 0x84, p1: 0, p2: 0, data: new Uint8Array(0), le: 8 });
  ensureOk(challenge, 'GET CHALLENGE');
  const rndIc = challenge.data;
  const request = buildMutualAuth(keys, rndIc, random(8), random(16));
  const auth = await exchange(transport, { cla: 0x00, ins: 0x82, p1: 0, p2: 0, data: request.commandData, le: 0x28 });
  ensureOk(auth, 'EXTERNAL AUTHENTICATE (BAC keys wrong?)');
  const s = completeMutualAuth(keys, auth.data, rndIc, request.rndIfd, request.kIfd);
  return new SecureMessaging('3DES', s.ksEnc, s.ksMac, s.ssc);
}

export interface ReadFileOptions {
  sm?: SecureMessaging;
  /** bytes per READ BINARY; 0xDF keeps SM-protected responses within short APDU limits */
  chunkSize?: number;
}

/** SELECT EF by file identifier, then READ BINARY until the file's outer TLV is complete. */
export async function readFile(transport: ApduTransport, fileId: number, options: ReadFileOptions = {}): Promise<Uint8Array> {
  const { sm } = options;
  const chunk = Math.min(options.chunkSize ?? 0xdf, 0xff);
  const fid = new Uint8Array([fileId >> 8, fileId & 0xff]);
  ensureOk(await exchange(transport, { cla: 0x00, ins: 0xa4, p1: 0x02, p2: 0x0c, data: fid }, sm), `SELECT ${fileId.toString(16)}`);
  const head = await readBinary(transport, 0, 8, sm);
  // Outer TLV header tells the file length (9303-10 §4.6: every EF is one BER-TLV object)
  let total: number;
  try {
    const t = readTlvHeader(head);
    total = t.headerLength + t.length;
  } catch (e) {
    throw new Icao9303Error('LDS_MALFORMED', `file ${fileId.toString(16)}`, `cannot read TLV header: ${(e as Error).message}`, { cause: e });
  }
  const parts = [head.subarray(0, Math.min(head.length, total))];
  let offset = parts[0].length;
  while (offset < total) {
    if (offset > MAX_SHORT_OFFSET)
      throw new Icao9303Error('CHIP_ERROR', 'READ BINARY', 'offsets above 32767 need odd-INS READ BINARY, which this reader does not support');
    const part = await readBinary(transport, offset, Math.min(chunk, total - offset), sm);
    if (part.length === 0) throw new Icao9303Error('CHIP_ERROR', 'READ BINARY', `no data at offset ${offset}`);
    parts.push(part);
    offset += part.length;
  }
  return concat(...parts);
}

async function readBinary(transport: ApduTransport, offset: number, length: number, sm?: SecureMessaging): Promise<Uint8Array> {
  const r = await exchange(transport, { cla: 0x00, ins: 0xb0, p1: offset >> 8, p2: offset & 0xff, data: new Uint8Array(0), le: length }, sm);
  ensureOk(r, `READ BINARY at ${offset}`, [SW_OK, SW_END_OF_FILE]);
  return r.data;
}

/** Tag and length of a BER-TLV header; the value may be incomplete (only the header is needed). */
function readTlvHeader(b: Uint8Array): { headerLength: number; length: number } {
  let p = (b[0] & 0x1f) === 0x1f ? 2 : 1;
  const first = b[p++];
  if (first === undefined) throw new Error('truncated');
  if (first < 0x80) return { headerLength: p, length: first };
  const n = first & 0x7f;
  if (n === 0 || n > 3 || p + n > b.length) throw new Error('unsupported length encoding');
  let length = 0;
  for (let i = 0; i < n; i++) length = length * 256 + b[p + i];
  return { headerLength: p + n, length };
}
