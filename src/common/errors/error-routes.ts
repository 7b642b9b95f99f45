import type { Application, Request } from 'express';
import type { PageSite } from '../pages/layout.js';
import type { AppError } from './app-error.js';

/** A SOAP route's fault for an error of its protocol; undefined for a transport error (answered as JSON). */
export type SoapFaultOf = (error: AppError) => string | undefined;

/** What the error renderer needs to know of the application's routes (set once by the assembly). */
export interface ErrorRoutes {
  /** The page shell's site (branding, privacy notice) for error pages. */
  site: PageSite;
  /** Whether the route is a page a person's browser opened (the authorization endpoint, the broker pages…). */
  answersPage(req: Request): boolean;
  /** The SOAP routes (exact path, and everything under it), each with its fault. */
  soapFaults?: ReadonlyMap<string, SoapFaultOf>;
}

const ROUTES = Symbol('error routes');

/**
 * Set by the assembly (createApp) on the HTTP application itself, like the error shapes (route-error-shapes.ts),
 * so each application has its own table and no module registers itself anywhere.
 */
export function useErrorRoutes(app: Application, routes: ErrorRoutes): void {
  (app.locals as Record<symbol, ErrorRoutes>)[ROUTES] = routes;
}

/** The request's application's table, if it has one (a bare Express app in a unit test may not). */
export function errorRoutesOf(req: Request): ErrorRoutes | undefined {
  return (req.app?.locals as Record<symbol, ErrorRoutes | undefined> | undefined)?.[ROUTES];
}

/** The path of the request, without its query. */
export const requestPathOf = (req: Request): string => (req.originalUrl ?? req.url ?? '').split('?')[0];
