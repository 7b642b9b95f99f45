/**
 * Minimal ISO/IEC 7816-4 BER-TLV reader for LDS data-group wrappers (tags like 0x61, 0x5F1F, 0x7F61).
 * These are not ASN.1 DER schemas, and real documents use BER indefinite lengths (0x80 … 00 00),
 * so a tolerant reader is needed (ICAO 9303-10 §4.7 "the LDS uses BER-TLV").
 */
import { Icao9303Error } from '../errors.js';

export interface Tlv {
  tag: number;
  constructed: boolean;
  /** value bytes (for indefinite length: without the end-of-contents octets) */
  value: Uint8Array;
  /** offset just past this TLV in the input */
  end: number;
  /** number of bytes of tag + length header */
  headerLength: number;
}

export function readTlv(buf: Uint8Array, offset = 0, field = 'TLV'): Tlv {
  let p = offset;
  const need = (n: number) => {
    if (p + n > buf.length) throw new Icao9303Error('TLV_MALFORMED', field, `truncated at offset ${p}`);
  };
  need(1);
  const first = buf[p++];
  let tag = first;
  if ((first & 0x1f) === 0x1f) {
    // ISO 7816-4 §5.2.2.1: subsequent tag bytes while b8 is set
    let count = 0;
    do {
      need(1);
      tag = tag * 256 + buf[p];
      if (++count > 3) throw new Icao9303Error('TLV_MALFORMED', field, 'tag longer than 4 bytes');
    } while (buf[p++] & 0x80);
  }
  const constructed = (first & 0x20) !== 0;
  need(1);
  const lenByte = buf[p++];
  let length: number;
  if (lenByte === 0x80) {
    if (!constructed) throw new Icao9303Error('TLV_MALFORMED', field, `indefinite length on primitive tag ${tag.toString(16)}`);
    const start = p;
    let q = p;
    for (;;) {
      if (q + 2 > buf.length) throw new Icao9303Error('TLV_MALFORMED', field, 'missing end-of-contents');
      if (buf[q] === 0 && buf[q + 1] === 0) break;
      q = readTlv(buf, q, field).end;
    }
    return { tag, constructed, value: buf.subarray(start, q), end: q + 2, headerLength: start - offset };
  } else if (lenByte & 0x80) {
    const n = lenByte & 0x7f;
    if (n > 4) throw new Icao9303Error('TLV_MALFORMED', field, `length field of ${n} bytes`);
    need(n);
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + buf[p++];
  } else {
    length = lenByte;
  }
  if (p + length > buf.length) {
    throw new Icao9303Error('TLV_MALFORMED', field, `tag ${tag.toString(16).toUpperCase()} length ${length} exceeds available ${buf.length - p} bytes`);
  }
  return { tag, constructed, value: buf.subarray(p, p + length), end: p + length, headerLength: p - offset };
}

/** Reads all TLVs contained in `buf` (children of a constructed value). */
export function readTlvList(buf: Uint8Array, field = 'TLV'): Tlv[] {
  const out: Tlv[] = [];
  let p = 0;
  while (p < buf.length) {
    // Padding 0x00/0xFF between objects is allowed by ISO 7816-4 §5.2.2
    if (buf[p] === 0x00 || buf[p] === 0xff) {
      p++;
      continue;
    }
    const t = readTlv(buf, p, field);
    out.push(t);
    p = t.end;
  }
  return out;
}

/** Reads exactly one TLV with the expected tag spanning the whole buffer (trailing bytes rejected). */
export function expectTlv(buf: Uint8Array, tag: number, field: string, allowTrailing = false): Tlv {
  const t = readTlv(buf, 0, field);
  if (t.tag !== tag) {
    throw new Icao9303Error('TLV_MALFORMED', field, `expected tag ${tag.toString(16).toUpperCase()}, found ${t.tag.toString(16).toUpperCase()}`);
  }
  if (!allowTrailing && t.end !== buf.length) {
    throw new Icao9303Error('TLV_MALFORMED', field, `${buf.length - t.end} trailing byte(s) after tag ${tag.toString(16).toUpperCase()}`);
  }
  return t;
}

export function findTlv(list: Tlv[], tag: number): Tlv | undefined {
  return list.find((t) => t.tag === tag);
}

/** Encodes a TLV with definite DER-style length (used by the specimen generator and SM). */
export function encodeTlv(tag: number, value: Uint8Array): Uint8Array {
  const tagBytes: number[] = [];
  for (let t = tag; t > 0; t = Math.floor(t / 256)) tagBytes.unshift(t & 0xff);
  if (tagBytes.length === 0) tagBytes.push(0);
  const len = value.length;
  let lenBytes: number[];
  if (len < 0x80) lenBytes = [len];
  else {
    const bytes: number[] = [];
    for (let l = len; l > 0; l = Math.floor(l / 256)) bytes.unshift(l & 0xff);
    lenBytes = [0x80 | bytes.length, ...bytes];
  }
  const out = new Uint8Array(tagBytes.length + lenBytes.length + len);
  out.set(tagBytes, 0);
  out.set(lenBytes, tagBytes.length);
  out.set(value, tagBytes.length + lenBytes.length);
  return out;
}
