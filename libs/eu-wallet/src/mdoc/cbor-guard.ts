import { cborDecode } from '@animo-id/mdoc';
import { WalletCheckError } from '../errors.js';

/** A DeviceResponse of one PID or mDL with a portrait stays well under this; anything larger is refused unread. */
export const MAX_DEVICE_RESPONSE_BYTES = 256 * 1024;

/** ISO 18013-5 nests: DeviceResponse → Document → IssuerSigned → nameSpaces → item → value; 32 leaves room for values. */
const MAX_DEPTH = 32;

/**
 * The only tags ISO 18013-5 and COSE (RFC 9052) use in an mdoc: tdate (0), epoch date (1), COSE_Mac0 (17),
 * COSE_Sign1 (18), encoded CBOR data item (24, ISO 18013-5 8.1), full-date (1004, RFC 8943). The decoder behind
 * @animo-id/mdoc (cbor-x) also honours tags that build objects from the input: bignums (2/3, whose decode is
 * quadratic: 60 KB of bignum take over a second), shared references (28/29, cycles), records and packed tables,
 * typed arrays, sets, Error and RegExp (27). None belongs in an mdoc, so an input carrying one is refused before
 * that decoder sees it.
 */
const ALLOWED_TAGS = new Set([0, 1, 17, 18, 24, 1004]);

const fail = (why: string): never => {
  throw new WalletCheckError('malformed', `not a well-formed mdoc CBOR item: ${why}`);
};

/**
 * Walks one CBOR item (RFC 8949 section 3) from `pos` without building it, and returns where it ends. Checks what a
 * decoder would trust: lengths within the input (so no allocation from a declared length), depth, tags, and the
 * contents of tag-24 byte strings, which the mdoc library decodes later and lazily.
 */
/* eslint-disable-next-line complexity -- one case per CBOR major type (RFC 8949 §3), in one switch so the walk reads
   like the specification's table; each case is a few lines */
function scanItem(bytes: Uint8Array, pos: number, depth: number): number {
  if (depth > MAX_DEPTH) fail('nested too deeply');
  if (pos >= bytes.length) fail('truncated');
  const initial = bytes[pos];
  const major = initial >> 5;
  const info = initial & 31;
  let p = pos + 1;
  let arg = info;
  if (info === 24 || info === 25 || info === 26 || info === 27) {
    const size = 1 << (info - 24);
    if (p + size > bytes.length) fail('truncated');
    arg = 0;
    // Lengths past 2^53 lose precision here, and are then refused as longer than the input.
    for (let i = 0; i < size; i++) arg = arg * 256 + bytes[p + i];
    p += size;
  } else if (info >= 28 && info <= 30) {
    fail('reserved additional information');
  }
  const indefinite = info === 31;
  if (indefinite && (major === 0 || major === 1 || major === 6)) fail('indefinite length on an integer or a tag');
  switch (major) {
    case 0:
    case 1:
      return p;
    case 2:
    case 3:
      if (indefinite) return scanChunks(bytes, p, major);
      if (arg > bytes.length - p) fail('string longer than the input');
      return p + arg;
    case 4:
    case 5: {
      const perEntry = major === 5 ? 2 : 1;
      if (indefinite) {
        while (bytes[p] !== 0xff) p = scanItem(bytes, p, depth + 1);
        return p + 1;
      }
      // Every item takes at least one byte: a count beyond what is left is a lie, caught before any allocation.
      if (arg * perEntry > bytes.length - p) fail('more entries than bytes');
      for (let i = 0; i < arg * perEntry; i++) p = scanItem(bytes, p, depth + 1);
      return p;
    }
    case 6:
      return scanTag(bytes, p, arg, depth);
    default:
      if (indefinite) fail('unexpected break');
      return p;
  }
}

function scanChunks(bytes: Uint8Array, pos: number, major: number): number {
  let p = pos;
  for (;;) {
    if (p >= bytes.length) fail('truncated');
    if (bytes[p] === 0xff) return p + 1;
    if (bytes[p] >> 5 !== major || (bytes[p] & 31) === 31) fail('bad chunk in an indefinite-length string');
    p = scanItem(bytes, p, MAX_DEPTH);
  }
}

function scanTag(bytes: Uint8Array, pos: number, tag: number, depth: number): number {
  if (!ALLOWED_TAGS.has(tag)) fail(`tag ${tag} is not used by mdocs`);
  if (pos >= bytes.length) fail('truncated');
  const contentMajor = bytes[pos] >> 5;
  const end = scanItem(bytes, pos, depth + 1);
  if (tag === 24) {
    // ISO 18013-5 8.1: #6.24(bstr .cbor X): the byte string holds exactly one well-formed item.
    if (contentMajor !== 2 || (bytes[pos] & 31) === 31) fail('tag 24 around something other than a definite byte string');
    const header = headerLength(bytes[pos]);
    scanWhole(bytes.subarray(pos + header, end), depth + 1);
  } else if ((tag === 0 || tag === 1004) && contentMajor !== 3) {
    fail(`tag ${tag} around something other than text`);
  } else if ((tag === 17 || tag === 18) && contentMajor !== 4) {
    fail(`tag ${tag} around something other than an array`);
  } else if (tag === 1 && contentMajor !== 0 && contentMajor !== 1 && contentMajor !== 7) {
    fail('tag 1 around something other than a number');
  }
  return end;
}

const headerLength = (initial: number): number => {
  const info = initial & 31;
  return info < 24 ? 1 : 1 + (1 << (info - 24));
};

function scanWhole(bytes: Uint8Array, depth: number): void {
  const end = scanItem(bytes, 0, depth);
  if (end !== bytes.length) fail('bytes after the item');
}

/**
 * Decodes bytes that must hold exactly one mdoc CBOR item, after the walk above said it is safe to: the bound, well
 * formed, only mdoc tags. Whatever the decoder still throws becomes `malformed`.
 */
export function decodeGuarded(bytes: Uint8Array): unknown {
  if (bytes.length > MAX_DEVICE_RESPONSE_BYTES) fail('larger than the bound');
  scanWhole(bytes, 0);
  try {
    return cborDecode(bytes);
  } catch (cause) {
    throw new WalletCheckError('malformed', 'the CBOR decoder refused the item', { cause });
  }
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** vp_token carries the DeviceResponse base64url-encoded without padding (OpenID4VP 1.0 Appendix B.2.4). */
export function deviceResponseBytes(input: string | Uint8Array): Uint8Array {
  if (typeof input !== 'string') {
    if (input.length > MAX_DEVICE_RESPONSE_BYTES) fail('larger than the bound');
    return input;
  }
  // Checked on the text, before decoding: 4 characters carry 3 bytes.
  if (input.length > Math.ceil((MAX_DEVICE_RESPONSE_BYTES * 4) / 3)) fail('larger than the bound');
  if (!BASE64URL.test(input)) throw new WalletCheckError('malformed', 'the mdoc presentation is not base64url');
  return new Uint8Array(Buffer.from(input, 'base64url'));
}
