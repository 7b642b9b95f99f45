import type { INestApplication } from '@nestjs/common';
import { DISCOVERY_PATH, OIDC_ROUTES } from '../../../src/oidc/provider/routes.js';

/** One route of the running service: `GET /wallet/v1/requests/:id`, or an engine path (which Express never routes). */
export interface AppRoute {
  method: string;
  path: string;
  engine: boolean;
  /** An earlier route that answers this one's own path (Express matches a trailing slash loosely): none can reach it. */
  shadowedBy?: string;
}

interface RouteLayer {
  route?: { path: unknown; methods: Record<string, boolean> };
  match(path: string): unknown;
}

const routeLayers = (app: INestApplication): RouteLayer[] =>
  (app.getHttpAdapter().getInstance() as { router: { stack: RouteLayer[] } }).router.stack.filter((layer) => typeof layer.route?.path === 'string');

/**
 * Every route the application serves, read from the running application rather than from a list kept by hand: each
 * route Express's router holds (Nest's controllers, those left out of the API reference included, and Swagger's
 * pages), and the engine's endpoints, which are middleware and so not in the router (the paths the metrics name).
 */
export function appRoutes(app: INestApplication): AppRoute[] {
  const layers = routeLayers(app);
  const routes = layers.flatMap((layer, i) =>
    Object.keys(layer.route!.methods)
      .filter((method) => method !== '_all')
      .map((method): AppRoute => {
        const path = layer.route!.path as string;
        const earlier = path.includes(':') ? undefined : layers.slice(0, i).find((other) => other.route!.methods[method] && other.match(path));
        return {
          method: method.toUpperCase(),
          path,
          engine: false,
          ...(earlier ? { shadowedBy: `${method.toUpperCase()} ${String(earlier.route!.path)}` } : {}),
        };
      }),
  );
  const engine = [DISCOVERY_PATH, ...Object.values(OIDC_ROUTES)].map((path) => ({ method: '*', path, engine: true }));
  return [...routes, ...engine];
}

export const routeName = (route: Pick<AppRoute, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** The route a request goes to, as Express matches it (for failure messages); the engine's by its path. */
export function routeMatcher(app: INestApplication): (method: string, target: string) => string {
  const layers = routeLayers(app);
  const engine = [DISCOVERY_PATH, ...Object.values(OIDC_ROUTES)].sort((a, b) => b.length - a.length);
  return (method, target) => {
    const path = target.split('?')[0];
    for (const prefix of engine) if (path === prefix || path.startsWith(`${prefix}/`)) return `${method} ${prefix}${path === prefix ? '' : '/*'} (engine)`;
    for (const layer of layers) {
      try {
        if ((layer.route!.methods[method.toLowerCase()] || (method === 'HEAD' && layer.route!.methods.get)) && layer.match(path))
          return `${method} ${String(layer.route!.path)}`;
      } catch {
        // A broken escape in a parameter: Express answers 400 before any route.
      }
    }
    return `${method} (no route)`;
  };
}

/**
 * How many requests each route has answered, from the service's own metrics (`http_request_duration_seconds_count`,
 * labelled with the route template that served the request, the engine's path, or `unmatched`), by status.
 */
export async function servedByRoute(baseUrl: string, metricsToken: string): Promise<Map<string, Map<string, number>>> {
  const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  const served = new Map<string, Map<string, number>>();
  for (const line of (await res.text()).split('\n')) {
    const m = /^http_request_duration_seconds_count\{(.*)\} (\d+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...m[1].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]));
    const key = `${labels.method} ${labels.route}`;
    const byStatus = served.get(key) ?? new Map<string, number>();
    byStatus.set(labels.status, (byStatus.get(labels.status) ?? 0) + Number(m[2]));
    served.set(key, byStatus);
  }
  return served;
}

/** The requests each route answered between two readings of servedByRoute, by route (any method for the engine's). */
export function reachedPerRoute(routes: AppRoute[], before: Map<string, Map<string, number>>, after: Map<string, Map<string, number>>): Map<string, number> {
  const total = (m: Map<string, Map<string, number>>, key: string) => [...(m.get(key)?.values() ?? [])].reduce((a, b) => a + b, 0);
  const keys = [...after.keys()];
  return new Map(
    routes.map((route) => {
      // The engine's endpoints by path whatever the method (its label is the path, `/*` below it).
      const labels = route.engine ? keys.filter((k) => k.endsWith(` ${route.path}`) || k.endsWith(` ${route.path}/*`)) : [routeName(route)];
      return [routeName(route), labels.reduce((sum, key) => sum + total(after, key) - total(before, key), 0)];
    }),
  );
}
