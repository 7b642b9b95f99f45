import { DateOnly } from '@animo-id/mdoc';
import { WalletCheckError } from '../errors.js';
import type { DocumentShape } from './device-response-shape.js';

/** A value nested deeper than this is not an identity attribute (ISO 18013-5 7.2 and the PID rulebook nest little). */
const MAX_VALUE_DEPTH = 8;

const bad = (why: string): never => {
  throw new WalletCheckError('malformed', `an element value is not usable: ${why}`);
};

/**
 * An element value as the claim mapping wants it: full-date (tag 1004, RFC 8943) as 'YYYY-MM-DD', tdate (tag 0) as
 * an ISO 8601 string, byte strings as Uint8Array, maps with text keys as plain objects (on a null prototype, so a
 * `__proto__` key is only data), and text, numbers, booleans, null as they are.
 */
export function plainValue(value: unknown, depth = 0): unknown {
  if (depth > MAX_VALUE_DEPTH) bad('nested too deeply');
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : bad('not a finite number');
  if (typeof value === 'bigint') return bad('an integer beyond 2^53');
  if (value instanceof DateOnly) return value.toISOString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? bad('not a date') : value.toISOString();
  if (value instanceof Uint8Array) return new Uint8Array(value);
  if (Array.isArray(value)) return value.map((v) => plainValue(v, depth + 1));
  if (value instanceof Map) {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of value) out[typeof k === 'string' ? k : bad('a map key that is not text')] = plainValue(v, depth + 1);
    return out;
  }
  return bad('a CBOR type mdocs do not use');
}

/** The issuer-signed elements of a verified document, by namespace and element identifier. */
export function presentedElements(shape: DocumentShape): Record<string, Record<string, unknown>> {
  const elements: Record<string, Record<string, unknown>> = Object.create(null);
  for (const [ns, items] of shape.items) {
    const values: Record<string, unknown> = Object.create(null);
    for (const item of items) values[item.elementIdentifier] = plainValue(item.elementValue);
    elements[ns] = values;
  }
  return elements;
}
