import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const REQUEST_ID = Symbol('requestId');
type WithId = Request & { [REQUEST_ID]?: string };

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** Gives every request an id (the caller's X-Request-Id when it is well formed) and echoes it back. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
  (req as WithId)[REQUEST_ID] = id;
  res.setHeader('X-Request-Id', id);
  next();
}

export function requestIdOf(req: Request): string | undefined {
  return (req as WithId)[REQUEST_ID];
}
