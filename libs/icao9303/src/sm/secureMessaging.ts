/**
 * Secure messaging (ICAO 9303-11 §9.8): DO85/DO87 encrypted data, DO97 Le, DO99 status, DO8E MAC over
 * SSC || padded header || data objects. 3DES (BAC, CA/PACE with 3DES) and AES (CA/PACE with AES) variants.
 * Both the terminal side (protect command / unprotect response) and the chip side (for simulators) are here.
 */
import { Icao9303Error } from '../errors.js';
import { bytesEqual, concat } from '../util/bytes.js';
import { encodeTlv, readTlvList, findTlv } from '../util/tlv.js';
import { decodeCommand, decodeResponse, encodeCommand, encodeResponse, type CommandApdu, type ResponseApdu } from './apdu.js';
import { aesCmac, aesDecrypt, aesEcb, aesEncrypt, pad, retailMac, tdesDecrypt, tdesEncrypt, unpad, type SmCipher } from './primitives.js';

export class SecureMessaging {
  private counter: Uint8Array;
  readonly blockSize: number;

  constructor(
    readonly cipher: SmCipher,
    readonly ksEnc: Uint8Array,
    readonly ksMac: Uint8Array,
    ssc: Uint8Array,
  ) {
    this.blockSize = cipher === '3DES' ? 8 : 16;
    if (ssc.length !== this.blockSize) throw new Icao9303Error('SECURE_MESSAGING', 'SSC', `must be ${this.blockSize} bytes for ${cipher}`);
    this.counter = ssc.slice();
  }

  get ssc(): Uint8Array {
    return this.counter.slice();
  }

  /** 9303-11 §9.8.3: the SSC is incremented before each command and each response. */
  incrementSsc(): void {
    for (let i = this.counter.length - 1; i >= 0; i--) {
      this.counter[i] = (this.counter[i] + 1) & 0xff;
      if (this.counter[i] !== 0) break;
    }
  }

  mac(data: Uint8Array): Uint8Array {
    const input = pad(concat(this.counter, data), this.blockSize);
    return this.cipher === '3DES' ? retailMac(this.ksMac, input) : aesCmac(this.ksMac, input).slice(0, 8);
  }

  encrypt(data: Uint8Array): Uint8Array {
    const p = pad(data, this.blockSize);
    // 9303-11 §9.8.6.1: AES uses IV = E(KSenc, SSC); 3DES uses a zero IV
    return this.cipher === '3DES' ? tdesEncrypt(this.ksEnc, p) : aesEncrypt(this.ksEnc, p, aesEcb(this.ksEnc, this.counter));
  }

  decrypt(data: Uint8Array): Uint8Array {
    if (data.length === 0 || data.length % this.blockSize !== 0)
      throw new Icao9303Error('SECURE_MESSAGING', 'DO87', 'cryptogram length is not a multiple of the block size');
    const p = this.cipher === '3DES' ? tdesDecrypt(this.ksEnc, data) : aesDecrypt(this.ksEnc, data, aesEcb(this.ksEnc, this.counter));
    return unpad(p);
  }

  /** Terminal: wraps a plain command APDU (9303-11 §9.8.4). */
  protectCommand(apdu: Uint8Array | CommandApdu): Uint8Array {
    const c = apdu instanceof Uint8Array ? decodeCommand(apdu) : apdu;
    const cla = c.cla | 0x0c;
    const header = pad(new Uint8Array([cla, c.ins, c.p1, c.p2]), this.blockSize);
    this.incrementSsc();
    let dataObject: Uint8Array = new Uint8Array(0);
    if (c.data.length) {
      // odd INS carries BER-TLV data: DO85 without padding-indicator byte; even INS: DO87 with 0x01
      dataObject = c.ins & 1 ? encodeTlv(0x85, this.encrypt(c.data)) : encodeTlv(0x87, concat(new Uint8Array([0x01]), this.encrypt(c.data)));
    }
    const le = c.le === undefined ? new Uint8Array(0) : encodeTlv(0x97, new Uint8Array([c.le]));
    const cc = this.mac(concat(header, dataObject, le));
    const body = concat(dataObject, le, encodeTlv(0x8e, cc));
    return encodeCommand({ cla, ins: c.ins, p1: c.p1, p2: c.p2, data: body, le: 0 });
  }

  /** Terminal: checks the MAC of a protected response and decrypts it (9303-11 §9.8.5). */
  unprotectResponse(rapdu: Uint8Array): ResponseApdu {
    const r = decodeResponse(rapdu);
    this.incrementSsc();
    if (r.data.length === 0)
      throw new Icao9303Error('CHIP_ERROR', 'SM response', `chip answered ${r.sw.toString(16).toUpperCase()} without secure messaging objects`);
    const items = readTlvList(r.data, 'SM response');
    const do87 = findTlv(items, 0x87);
    const do99 = findTlv(items, 0x99);
    const do8e = findTlv(items, 0x8e);
    if (!do99 || !do8e) throw new Icao9303Error('SECURE_MESSAGING', 'SM response', 'DO99 or DO8E missing');
    const macInput = concat(do87 ? encodeTlv(0x87, do87.value) : new Uint8Array(0), encodeTlv(0x99, do99.value));
    if (!bytesEqual(this.mac(macInput), do8e.value)) throw new Icao9303Error('SECURE_MESSAGING', 'DO8E', 'response MAC does not verify (9303-11 §9.8.5)');
    const data = do87 ? this.decrypt(do87.value.subarray(1)) : new Uint8Array(0);
    return { data, sw: (do99.value[0] << 8) | do99.value[1] };
  }

  /** Chip: verifies and decrypts a protected command (inverse of protectCommand). */
  unprotectCommand(apdu: Uint8Array): CommandApdu {
    const c = decodeCommand(apdu);
    this.incrementSsc();
    const items = readTlvList(c.data, 'SM command');
    const do87 = findTlv(items, 0x87) ?? findTlv(items, 0x85);
    const do97 = findTlv(items, 0x97);
    const do8e = findTlv(items, 0x8e);
    if (!do8e) throw new Icao9303Error('SECURE_MESSAGING', 'DO8E', 'missing in command');
    const header = pad(new Uint8Array([c.cla, c.ins, c.p1, c.p2]), this.blockSize);
    const macInput = concat(header, do87 ? encodeTlv(do87.tag, do87.value) : new Uint8Array(0), do97 ? encodeTlv(0x97, do97.value) : new Uint8Array(0));
    if (!bytesEqual(this.mac(macInput), do8e.value)) throw new Icao9303Error('SECURE_MESSAGING', 'DO8E', 'command MAC does not verify');
    const data = do87 ? this.decrypt(do87.tag === 0x87 ? do87.value.subarray(1) : do87.value) : new Uint8Array(0);
    return { cla: c.cla & ~0x0c, ins: c.ins, p1: c.p1, p2: c.p2, data, le: do97 ? do97.value[0] : undefined };
  }

  /** Chip: builds a protected response with DO87 (if data), DO99 and DO8E. */
  protectResponse(data: Uint8Array, sw: number): Uint8Array {
    this.incrementSsc();
    const do87 = data.length ? encodeTlv(0x87, concat(new Uint8Array([0x01]), this.encrypt(data))) : new Uint8Array(0);
    const do99 = encodeTlv(0x99, new Uint8Array([sw >> 8, sw & 0xff]));
    return encodeResponse(concat(do87, do99, encodeTlv(0x8e, this.mac(concat(do87, do99)))), 0x9000);
  }
}
