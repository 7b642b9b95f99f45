import type { IncomingMessage } from 'node:http';
import { DISCOVERY_PATH, OIDC_ROUTES } from '../../oidc/provider/routes.js';

/** The engine's paths, which Express never routes (the engine is middleware): matched here instead. */
const ENGINE_PATHS = [DISCOVERY_PATH, ...Object.values(OIDC_ROUTES)].sort((a, b) => b.length - a.length);

/**
 * The route template of a finished request, for metric labels: Nest's route (`/its/interaction/:uid`), the
 * engine's endpoint path, or `unmatched`. Never the raw path: ids, codes and tokens would become labels (a
 * privacy leak and unbounded series).
 */
export function routeLabel(req: IncomingMessage & { route?: { path?: unknown }; baseUrl?: string }, rawPath: string): string {
  if (typeof req.route?.path === 'string') return `${req.baseUrl ?? ''}${req.route.path}`;
  for (const path of ENGINE_PATHS) {
    if (rawPath === path) return path;
    if (rawPath.startsWith(`${path}/`)) return `${path}/*`;
  }
  return 'unmatched';
}

/** The path of a raw request URL (no query), for matching only. */
export function rawPathOf(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0];
  return path || '/';
}
