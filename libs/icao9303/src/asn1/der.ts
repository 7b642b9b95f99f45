/** Strict DER/BER decoding through @peculiar/asn1-schema, reporting failures as Icao9303Error. */
import { AsnConvert, AsnParser } from '@peculiar/asn1-schema';
import { Icao9303Error, guard, type Icao9303ErrorCode } from '../errors.js';
import { toArrayBuffer } from '../util/bytes.js';
import { readTlv } from '../util/tlv.js';

type Ctor<T> = new () => T;

/** Master lists hold hundreds of certificates; asn1js' default node limit is too small for them. */
const BER_OPTIONS = { maxNodes: 1_000_000, parseEmbedded: false };

/** Parses `bytes` as exactly one `type` value; trailing bytes are rejected (X.690 §8.1.1). */
export function decode<T>(bytes: Uint8Array | ArrayBuffer, type: Ctor<T>, code: Icao9303ErrorCode, field: string): T {
  const ab = bytes instanceof ArrayBuffer ? bytes : toArrayBuffer(bytes);
  // Outer TLV must span the input exactly (cheap check; asn1js alone ignores trailing bytes)
  const outer = guard(code, field, () => readTlv(new Uint8Array(ab), 0, field));
  if (outer.end !== ab.byteLength) throw new Icao9303Error(code, field, `${ab.byteLength - outer.end} trailing byte(s) after the ASN.1 value`);
  try {
    return AsnParser.parse(ab, type, { berOptions: BER_OPTIONS });
  } catch (e) {
    throw new Icao9303Error(code, field, e instanceof Error ? e.message : String(e), { cause: e });
  }
}

export function encode(value: unknown): Uint8Array {
  return new Uint8Array(AsnConvert.serialize(value));
}
