import type { Request } from 'express';
import { AppError } from './app-error.js';
import { errorRoutesOf, requestPathOf } from './error-routes.js';

/** How an error leaves: a SOAP fault, the HTML error page, or the JSON error object. */
export type ErrorRepresentation = { kind: 'soap'; fault: string } | { kind: 'page' } | { kind: 'json' };

/**
 * Chosen from the route and the request: on a SOAP route an error of its protocol is a SOAP fault (a transport
 * error, 401/413/415, stays JSON); on a page a browser opened (the authorization endpoint of spec 4.2.2, the broker
 * pages) the error page, unless the client asks for JSON rather than HTML; everywhere else the JSON error object
 * (in the route's own shape where it has one, route-error-shapes.ts).
 */
export function representationOf(req: Request, error: unknown): ErrorRepresentation {
  const routes = errorRoutesOf(req);
  if (!routes) return { kind: 'json' };
  const path = requestPathOf(req);
  for (const [route, faultOf] of routes.soapFaults ?? []) {
    if (path !== route && !path.startsWith(`${route}/`)) continue;
    const fault = error instanceof AppError ? faultOf(error) : undefined;
    if (fault !== undefined) return { kind: 'soap', fault };
  }
  if (routes.answersPage(req) && req.accepts(['html', 'json']) !== 'json') return { kind: 'page' };
  return { kind: 'json' };
}
