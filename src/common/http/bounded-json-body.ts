import type { NextFunction, Request, Response } from 'express';
import { AppError, BadRequestError } from '../errors/app-error.js';
import { jsonTextBoundsExceeded } from './json-bounds.js';
import { hasBody } from './replayable-body.js';

const tooLarge = () => new AppError(413, 'payload_too_large', 'the request body is too large');
const unsupported = (why: string) => new AppError(415, 'unsupported_media_type', why);
const notJson = () => new BadRequestError('request body is not valid JSON');

const isSpace = (b: number | undefined) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** The charset a Content-Type names (lower case), or undefined. */
function charsetOf(contentType: string | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
}

/** Why the request's body is not one this parser reads, or undefined. */
function unreadable(req: Request, limit: number): AppError | undefined {
  if (!req.is('application/json')) return unsupported('the request body must be application/json');
  // A compressed body's declared length says nothing of what it inflates to.
  if ((req.headers['content-encoding'] ?? 'identity').toLowerCase() !== 'identity') return unsupported('compressed request bodies are not accepted');
  const charset = charsetOf(req.headers['content-type']);
  if (charset !== undefined && charset !== 'utf-8') return unsupported('JSON bodies must be UTF-8');
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return tooLarge();
  return undefined;
}

/** The body's bytes, or the refusal: reading stops at the first byte over `limit` (a chunked body has no declared length). */
async function readCapped(req: Request, limit: number): Promise<Buffer | AppError> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) return tooLarge();
      chunks.push(chunk);
    }
  } catch {
    return new BadRequestError('the request body could not be read');
  }
  return Buffer.concat(chunks, size);
}

/** Parses as body-parser's strict JSON does: empty is {}, anything but an object or an array is refused. */
function parseStrict(body: Buffer): unknown {
  if (body.length === 0) return {};
  let first = 0;
  while (isSpace(body[first])) first++;
  if (body[first] !== 0x7b && body[first] !== 0x5b) throw notJson();
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw notJson();
  }
}

/**
 * The JSON parser of the routes strangers can send megabytes to (the app API). body-parser reads a refused body to
 * its end before it answers (so the connection can be kept), and inflates compressed bodies; here a body is refused
 * by its declared length before a byte is read, reading stops at the limit, and the refusal closes the connection
 * instead (the error renderer), so an 8 MB stranger costs what a plain request does. JSON_BOUNDS hold before parsing, as
 * verifyJsonBounds does for body-parser.
 */
export function boundedJsonBody(limit: number) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    // A body read already (by a parser for a more specific path) is not read again.
    if (req.readableEnded || !hasBody(req)) return next();
    const refusal = unreadable(req, limit);
    if (refusal) return next(refusal);
    const body = await readCapped(req, limit);
    if (body instanceof AppError) return next(body);
    const exceeded = jsonTextBoundsExceeded(body);
    if (exceeded) return next(new BadRequestError(exceeded));
    try {
      req.body = parseStrict(body);
    } catch (e) {
      return next(e);
    }
    next();
  };
}
