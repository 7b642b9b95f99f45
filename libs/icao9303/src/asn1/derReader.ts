/**
 * Single-pass DER/BER reader over the received bytes (X.690 §8), for the hot path of passive authentication:
 * SignedData, LDSSecurityObject, certificates, SubjectPublicKeyInfo. A schema decode through
 * @peculiar/asn1-schema + asn1js builds several objects per TLV and cost ~10 ms per SOD; this reader only
 * slices the input, so every signed part (signed attributes, tbsCertificate) stays the original bytes.
 * Tags are the identifier octets read as one number (0x30 SEQUENCE, 0xA0 [0] constructed, …).
 */
import { Icao9303Error, type Icao9303ErrorCode } from '../errors.js';
import { encodeTlv, readTlv } from '../util/tlv.js';
import { concat } from '../util/bytes.js';

export interface DerNode {
  tag: number;
  /** the whole TLV as received */
  raw: Uint8Array;
  /** contents octets (without end-of-contents for indefinite lengths) */
  value: Uint8Array;
}

export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

export class DerReader {
  constructor(
    readonly code: Icao9303ErrorCode,
    readonly field: string,
  ) {}

  fail(where: string, message: string): never {
    throw new Icao9303Error(this.code, `${this.field}.${where}`, message);
  }

  /** Exactly one TLV spanning `bytes` (trailing bytes rejected, X.690 §8.1.1). */
  one(bytes: Uint8Array, where: string, tag?: number): DerNode {
    const n = this.at(bytes, 0, where);
    if (n.raw.length !== bytes.length) this.fail(where, `${bytes.length - n.raw.length} trailing byte(s) after the ASN.1 value`);
    if (tag !== undefined) this.expect(n, tag, where);
    return n;
  }

  /** Elements of a constructed value, in order. */
  children(node: DerNode, where: string, tag?: number): DerNode[] {
    if (tag !== undefined) this.expect(node, tag, where);
    if ((node.raw[0] & 0x20) === 0) this.fail(where, 'expected a constructed value');
    const out: DerNode[] = [];
    for (let p = 0; p < node.value.length;) {
      const c = this.at(node.value, p, where);
      out.push(c);
      p += c.raw.length;
    }
    return out;
  }

  expect(node: DerNode | undefined, tag: number, where: string): DerNode {
    if (!node) this.fail(where, `missing element (tag ${hex(tag)})`);
    if (node.tag !== tag) this.fail(where, `expected tag ${hex(tag)}, found ${hex(node.tag)}`);
    return node;
  }

  oid(node: DerNode | undefined, where: string): string {
    const v = this.expect(node, TAG.OID, where).value;
    if (v.length === 0 || (v[v.length - 1] & 0x80) !== 0) this.fail(where, 'malformed OBJECT IDENTIFIER');
    const arcs: number[] = [];
    let acc = 0;
    for (let i = 0; i < v.length; i++) {
      if (acc === 0 && v[i] === 0x80) this.fail(where, 'OBJECT IDENTIFIER arc with a leading 0x80 (X.690 §8.19.2)');
      acc = acc * 128 + (v[i] & 0x7f);
      if (acc > Number.MAX_SAFE_INTEGER / 128) this.fail(where, 'OBJECT IDENTIFIER arc too large');
      if ((v[i] & 0x80) === 0) {
        if (arcs.length === 0) arcs.push(acc < 40 ? 0 : acc < 80 ? 1 : 2, acc < 80 ? acc % 40 : acc - 80);
        else arcs.push(acc);
        acc = 0;
      }
    }
    return arcs.join('.');
  }

  /** Small non-negative INTEGER (versions, data group numbers). */
  smallInt(node: DerNode | undefined, where: string): number {
    const v = this.expect(node, TAG.INTEGER, where).value;
    if (v.length === 0 || v.length > 6 || (v[0] & 0x80) !== 0) this.fail(where, 'INTEGER out of range');
    let n = 0;
    for (const b of v) n = n * 256 + b;
    return n;
  }

  /** OCTET STRING contents; a BER constructed OCTET STRING is concatenated (X.690 §8.7.3). */
  octets(node: DerNode | undefined, where: string): Uint8Array {
    if (node && node.tag === (TAG.OCTET_STRING | 0x20)) {
      const parts = this.children(node, where).map((c) => this.octets(c, where));
      return concat(...parts);
    }
    return this.expect(node, TAG.OCTET_STRING, where).value;
  }

  /** BIT STRING contents without the unused-bits octet; keys and signatures have no unused bits. */
  bits(node: DerNode | undefined, where: string): Uint8Array {
    const v = this.expect(node, TAG.BIT_STRING, where).value;
    if (v.length === 0 || v[0] !== 0) this.fail(where, 'BIT STRING with unused bits');
    return v.subarray(1);
  }

  /** UTCTime (years 1950–2049, RFC 5280 §4.1.2.5.1) or GeneralizedTime, in UTC ("Z"). */
  time(node: DerNode | undefined, where: string): Date {
    if (!node || (node.tag !== TAG.UTC_TIME && node.tag !== TAG.GENERALIZED_TIME)) this.fail(where, 'expected UTCTime or GeneralizedTime');
    const s = Buffer.from(node.value).toString('latin1');
    const m = (node.tag === TAG.UTC_TIME ? /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)?Z$/ : /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)?(\d\d)?(?:\.\d+)?Z$/).exec(s);
    if (!m) this.fail(where, `unsupported time "${s}"`);
    let year = Number(m[1]);
    if (node.tag === TAG.UTC_TIME) year += year < 50 ? 2000 : 1900;
    const d = new Date(Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5] ?? 0), Number(m[6] ?? 0)));
    if (Number.isNaN(d.getTime())) this.fail(where, `invalid time "${s}"`);
    return d;
  }

  private at(bytes: Uint8Array, offset: number, where: string): DerNode {
    let t;
    try {
      t = readTlv(bytes, offset, `${this.field}.${where}`);
    } catch (e) {
      throw new Icao9303Error(this.code, `${this.field}.${where}`, e instanceof Error ? e.message : String(e), { cause: e });
    }
    if (t.tag > 0xff) this.fail(where, `unexpected high tag number ${hex(t.tag)}`);
    return { tag: t.tag, raw: bytes.subarray(offset, t.end), value: t.value };
  }
}

/**
 * The same value with every length in minimal definite form (X.690 §10.1), tags and contents unchanged:
 * names that differ only in their length encoding compare equal. undefined when `bytes` is not one TLV.
 */
export function canonicalLengths(bytes: Uint8Array): Uint8Array | undefined {
  const r = new DerReader('TLV_MALFORMED', 'value');
  const reencode = (node: DerNode): Uint8Array => encodeTlv(node.tag, node.raw[0] & 0x20 ? concat(...r.children(node, 'value').map(reencode)) : node.value);
  try {
    return reencode(r.one(bytes, 'value'));
  } catch (e) {
    if (e instanceof Icao9303Error) return undefined;
    throw e;
  }
}

function hex(tag: number): string {
  return tag.toString(16).toUpperCase().padStart(2, '0');
}
