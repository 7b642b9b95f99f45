import type { ErrorBody, ReplacementErrorBody } from './error-body.js';

/**
 * Turns the generic error object (status and `{ error, error_description }`) into the error object an
 * operation's spec defines instead (auth-files, spec 2.7), for the errors raised before the operation's own
 * code runs: a body that is not JSON, too large, a NUL, an unknown path under its prefix.
 */
export type ErrorShape = (status: number, generic: ErrorBody) => ReplacementErrorBody;

const shapes = new Map<string, ErrorShape>();

/** Every error answered under `prefix` (a path ending in `/`) leaves in this shape. Idempotent per prefix. */
export function useErrorShapeUnder(prefix: string, shape: ErrorShape): void {
  if (!prefix.startsWith('/') || !prefix.endsWith('/')) throw new Error(`error shape prefix must start and end with /: ${prefix}`);
  shapes.set(prefix, shape);
}

/** The shape registered for the request's path (without its query), if any. */
export function errorShapeFor(originalUrl: string | undefined): ErrorShape | undefined {
  const path = (originalUrl ?? '').split('?')[0];
  for (const [prefix, shape] of shapes) if (path.startsWith(prefix)) return shape;
  return undefined;
}
