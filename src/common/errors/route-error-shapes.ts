import type { Application, Request } from 'express';
import type { ErrorBody, ReplacementErrorBody } from './error-body.js';

/**
 * Turns the generic error object (status and `{ error, error_description }`) into the error object an
 * operation's spec defines instead (auth-files, spec 2.7), for the errors raised before the operation's own
 * code runs: a body that is not JSON, too large, a NUL, an unknown path under its prefix.
 */
export type ErrorShape = (status: number, generic: ErrorBody) => ReplacementErrorBody;

/** Path prefix (starting and ending with `/`) to its shape. */
export type ErrorShapes = ReadonlyMap<string, ErrorShape>;

const SHAPES = Symbol('route error shapes');

/**
 * Every error answered under each prefix leaves in its shape. Set by the assembly (createApp) on the HTTP
 * application itself, so each application has its own table and no module registers itself anywhere.
 */
export function useErrorShapes(app: Application, shapes: ErrorShapes): void {
  for (const prefix of shapes.keys())
    if (!prefix.startsWith('/') || !prefix.endsWith('/')) throw new Error(`error shape prefix must start and end with /: ${prefix}`);
  (app.locals as Record<symbol, ErrorShapes>)[SHAPES] = shapes;
}

/** The shape for the request's path (without its query), if its application has one. */
export function errorShapeFor(req: Request): ErrorShape | undefined {
  const shapes = (req.app?.locals as Record<symbol, ErrorShapes | undefined> | undefined)?.[SHAPES];
  if (!shapes) return undefined;
  const path = (req.originalUrl ?? req.url ?? '').split('?')[0];
  for (const [prefix, shape] of shapes) if (path.startsWith(prefix)) return shape;
  return undefined;
}
