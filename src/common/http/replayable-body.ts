import type { Request } from 'express';
import { AppError } from '../errors/app-error.js';

const BUFFERED = Symbol('bufferedBody');
type WithBody = Request & { [BUFFERED]?: Buffer };

/** A body over the limit its reader was given: refused with 413, its rest left unread (error-renderer.ts). */
export class BodyTooLargeError extends AppError {
  constructor() {
    super(413, 'payload_too_large', 'the request body is too large');
  }
}

/** Whether the request announces a body (a length or chunked transfer). */
export function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
}

/**
 * Reads the raw body once (at most `limit` bytes) so the edge can look at it before the protocol engine
 * does; later callers get the same bytes. The engine then reads it as if it were unread (replayBody).
 */
export async function readRawBody(req: Request, limit: number): Promise<Buffer> {
  const done = (req as WithBody)[BUFFERED];
  if (done) return done;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLargeError();
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks, size);
  replayBody(req, body);
  return body;
}

/**
 * Makes `body` the request's unread body for the engine. oidc-provider reads bodies itself
 * (lib/shared/selective_body.js): it takes `req.readable`, iterates `req.iterator()` and checks the
 * Content-Length; handing it a parsed `req.body` instead works too, but makes it print a warning.
 */
export function replayBody(req: Request, body: Buffer): void {
  (req as WithBody)[BUFFERED] = body;
  req.headers['content-length'] = String(body.length);
  delete req.headers['transfer-encoding'];
  Object.defineProperty(req, 'readable', { value: true, configurable: true, writable: true });
  Object.defineProperty(req, 'iterator', {
    configurable: true,
    writable: true,
    value: () =>
      (async function* () {
        if (body.length) yield body;
      })(),
  });
}
