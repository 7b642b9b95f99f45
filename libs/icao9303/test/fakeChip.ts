/**
 * A fake eMRTD chip for reader tests: BAC mutual authentication (9303-11 §4.3) on the chip side, then
 * secure messaging (§9.8) for SELECT and READ BINARY of its files. Deliberately small and strict.
 */
import { randomBytes } from 'node:crypto';
import { SecureMessaging, deriveBacKeys, retailMac, pad, type ApduTransport } from '@identity-broker/icao9303';
import { sessionKeys } from '../src/sm/bac.js';
import { tdesDecrypt, tdesEncrypt } from '../src/sm/primitives.js';
import { decodeCommand, encodeResponse } from '../src/sm/apdu.js';
import { bytesEqual, concat } from '../src/util/bytes.js';

const sw = (code: number) => encodeResponse(new Uint8Array(0), code);

export class FakeChip implements ApduTransport {
  readonly sent: Uint8Array[] = [];
  readonly received: Uint8Array[] = [];
  private sm?: SecureMessaging;
  private rndIc?: Uint8Array;
  private selected?: Uint8Array;

  constructor(
    private readonly files: Map<number, Uint8Array>,
    private readonly mrzInformation: string,
    private readonly fixed: { rndIc?: Uint8Array; kIc?: Uint8Array } = {},
  ) {}

  async transmit(apdu: Uint8Array): Promise<Uint8Array> {
    this.sent.push(apdu);
    const r = this.handle(apdu);
    this.received.push(r);
    return r;
  }

  private handle(apdu: Uint8Array): Uint8Array {
    if (this.sm) return this.handleProtected(apdu);
    const c = decodeCommand(apdu);
    if (c.ins === 0xa4 && c.p1 === 0x04) return sw(0x9000);
    if (c.ins === 0x84) {
      this.rndIc = this.fixed.rndIc ?? new Uint8Array(randomBytes(8));
      return encodeResponse(this.rndIc, 0x9000);
    }
    if (c.ins === 0x82 && this.rndIc) {
      const keys = deriveBacKeys(this.mrzInformation);
      const eIfd = c.data.subarray(0, 32);
      if (!bytesEqual(retailMac(keys.kMac, pad(eIfd)), c.data.subarray(32))) return sw(0x6300);
      const s = tdesDecrypt(keys.kEnc, eIfd);
      const rndIfd = s.subarray(0, 8);
      if (!bytesEqual(s.subarray(8, 16), this.rndIc)) return sw(0x6300);
      const kIc = this.fixed.kIc ?? new Uint8Array(randomBytes(16));
      const eIc = tdesEncrypt(keys.kEnc, concat(this.rndIc, rndIfd, kIc));
      const session = sessionKeys(s.subarray(16, 32), kIc, this.rndIc, rndIfd);
      this.sm = new SecureMessaging('3DES', session.ksEnc, session.ksMac, session.ssc);
      return encodeResponse(concat(eIc, retailMac(keys.kMac, pad(eIc))), 0x9000);
    }
    return sw(0x6982);
  }

  private handleProtected(apdu: Uint8Array): Uint8Array {
    let c;
    try {
      c = this.sm!.unprotectCommand(apdu);
    } catch {
      this.sm = undefined; // 9303-11 §9.8.4: an SM error ends the session
      return sw(0x6988);
    }
    if (c.ins === 0xa4 && c.p1 === 0x02) {
      const fid = (c.data[0] << 8) | c.data[1];
      this.selected = this.files.get(fid);
      return this.sm!.protectResponse(new Uint8Array(0), this.selected ? 0x9000 : 0x6a82);
    }
    if (c.ins === 0xb0 && this.selected) {
      const offset = (c.p1 << 8) | c.p2;
      const le = c.le === 0 ? 256 : (c.le ?? 256);
      const data = this.selected.subarray(offset, offset + le);
      return this.sm!.protectResponse(data, data.length < le ? 0x6282 : 0x9000);
    }
    return this.sm!.protectResponse(new Uint8Array(0), 0x6d00);
  }
}
