import type { NextFunction, Request, Response } from 'express';
import { BadRequestError } from '../errors/app-error.js';

/**
 * The most a JSON body may hold: members and array elements in all, and levels of nesting. The largest legitimate
 * bodies (a merchant with 20 JWKs, an auth-files request with its metadata, a face upload of 17 frames) hold a few
 * hundred entries and nest 5 levels; form bodies and query strings are held to 1,000 parameters by their parsers.
 * Validation (class-transformer) costs the square of an object's keys: 150,000 unknown keys took 14-30 s of CPU,
 * and parsing an 8 MiB body of keys a second, each with the event loop blocked throughout.
 */
export const JSON_BOUNDS = { maxEntries: 1_000, maxDepth: 16 } as const;
type Bounds = { maxEntries: number; maxDepth: number };

const tooMany = (max: number) => `the request body holds more than ${max} fields and array elements`;
const tooDeep = (max: number) => `the request body nests deeper than ${max} levels`;

/** Why a parsed value exceeds the bounds, or undefined; one pass that stops at the first excess. */
export function jsonBoundsExceeded(value: unknown, { maxEntries, maxDepth }: Bounds = JSON_BOUNDS): string | undefined {
  let entries = 0;
  const pending: [object, number][] = [];
  const visit = (v: unknown, depth: number) => {
    if (v !== null && typeof v === 'object') pending.push([v, depth]);
  };
  visit(value, 1);
  while (pending.length) {
    const [v, depth] = pending.pop()!;
    if (depth > maxDepth) return tooDeep(maxDepth);
    if (Array.isArray(v)) {
      entries += v.length;
      if (entries > maxEntries) return tooMany(maxEntries);
      for (const inner of v) visit(inner, depth + 1);
    } else {
      for (const key in v) {
        if (++entries > maxEntries) return tooMany(maxEntries);
        visit((v as Record<string, unknown>)[key], depth + 1);
      }
    }
  }
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const isOpener = (b: number) => b === 0x5b || b === 0x7b;
const isCloser = (b: number) => b === 0x5d || b === 0x7d;
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** The index of the quote that ends the string opened at `start` (or the end). */
function endOfString(bytes: Uint8Array, start: number): number {
  let i = start;
  for (;;) {
    i = bytes.indexOf(QUOTE, i + 1);
    if (i < 0) return bytes.length;
    let backslashes = 0;
    while (bytes[i - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return i;
  }
}

/**
 * jsonBoundsExceeded on the raw UTF-8 text, before it is parsed, so a body of keys is refused before it costs a
 * parse: each opening bracket that is not empty and each comma outside strings starts an entry. Strings are
 * skipped with indexOf, so a body of long Base64 values (chip files, face frames) costs a few milliseconds.
 * Exact for valid JSON; invalid JSON fails the parse after it anyway.
 */
export function jsonTextBoundsExceeded(bytes: Uint8Array, { maxEntries, maxDepth }: Bounds = JSON_BOUNDS): string | undefined {
  let entries = 0;
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) {
      i = endOfString(bytes, i);
    } else if (isOpener(b)) {
      if (++depth > maxDepth) return tooDeep(maxDepth);
      let next = i + 1;
      while (isSpace(bytes[next])) next++;
      if (!isCloser(bytes[next]) && ++entries > maxEntries) return tooMany(maxEntries);
    } else if (isCloser(b)) {
      depth--;
    } else if (b === COMMA && ++entries > maxEntries) {
      return tooMany(maxEntries);
    }
  }
  return undefined;
}

/**
 * The `verify` hook of every JSON body parser: a body beyond the bounds answers 400 before it is parsed. JSON is
 * UTF-8 (RFC 8259 §8.1): the scan reads bytes, so other charsets (UTF-16, which the parser would decode) answer 415.
 */
export function verifyJsonBounds(_req: unknown, _res: unknown, body: Buffer, charset: string): void {
  if (charset !== 'utf-8') throw Object.assign(new Error('JSON bodies must be UTF-8'), { status: 415 });
  const exceeded = jsonTextBoundsExceeded(body);
  if (exceeded) throw Object.assign(new Error(exceeded), { status: 400 });
}

/**
 * After the body parsers, before validation: a parsed body beyond the bounds answers one short 400. The parsers'
 * own checks (verifyJsonBounds, the form parsers' parameter limit) refuse such bodies earlier; this holds for
 * every parser, also one added without them.
 */
export function refuseUnboundedBody(req: Request, _res: Response, next: NextFunction): void {
  const exceeded = jsonBoundsExceeded(req.body);
  if (exceeded) return next(new BadRequestError(exceeded));
  next();
}
