/** JSON rendering for CLI output: binary as hex, large binaries (images) summarised, key objects omitted. */
import { createHash, KeyObject } from 'node:crypto';
import { DocumentCertificate } from '../pki/certificate.js';
import { toHex } from '../util/bytes.js';

const LARGE = 256;

function binary(b: Uint8Array): unknown {
  if (b.length <= LARGE) return toHex(b);
  return { size: b.length, sha256: createHash('sha256').update(b).digest('hex') };
}

export function toJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v) => {
      if (v instanceof Uint8Array) return binary(v);
      if (v instanceof ArrayBuffer) return binary(new Uint8Array(v));
      if (v instanceof KeyObject) return undefined;
      if (v instanceof DocumentCertificate) return v.summary();
      if (v instanceof Map) return Object.fromEntries(v);
      if (typeof v === 'bigint') return v.toString();
      // Buffer.toJSON runs before the replacer sees it
      if (v && typeof v === 'object' && v.type === 'Buffer' && Array.isArray(v.data)) return binary(new Uint8Array(v.data));
      return v;
    },
    2,
  );
}
