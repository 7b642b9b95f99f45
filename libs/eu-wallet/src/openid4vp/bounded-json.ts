import { WalletCheckError } from '../errors.js';

/** Bounds on JSON that a wallet sends (wallet_metadata, the decrypted response payload). */
export interface JsonBounds {
  /** Characters of the JSON text, checked before parsing. */
  maxLength: number;
  /** Nesting of objects and arrays (the top level counts as 1). */
  maxDepth: number;
  /** Object members and array elements, counted over the whole value. */
  maxEntries: number;
}

/**
 * JSON.parse with bounds, for text from a wallet: the length is checked before parsing, the depth and the number of
 * entries after (JSON.parse itself is linear in the length, so the length bound is what protects the parse; the other
 * two keep later walks over the value small). `__proto__` keys are refused: they would be own properties here but
 * become prototypes if a caller ever spreads the value into a new object. Any failure is `malformed`.
 */
export function parseBoundedJson(text: string, bounds: JsonBounds, what: string): unknown {
  if (text.length > bounds.maxLength) throw new WalletCheckError('malformed', `${what} is longer than ${bounds.maxLength} characters`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new WalletCheckError('malformed', `${what} is not JSON`);
  }
  let entries = 0;
  const walk = (node: unknown, depth: number): void => {
    if (node === null || typeof node !== 'object') return;
    if (depth > bounds.maxDepth) throw new WalletCheckError('malformed', `${what} is nested deeper than ${bounds.maxDepth}`);
    const children = Array.isArray(node) ? node : Object.entries(node as Record<string, unknown>);
    entries += children.length;
    if (entries > bounds.maxEntries) throw new WalletCheckError('malformed', `${what} has more than ${bounds.maxEntries} entries`);
    for (const child of children) {
      if (Array.isArray(node)) walk(child, depth + 1);
      else {
        const [key, inner] = child as [string, unknown];
        if (key === '__proto__') throw new WalletCheckError('malformed', `${what} has a __proto__ member`);
        walk(inner, depth + 1);
      }
    }
  };
  walk(value, 1);
  return value;
}

/** A plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
