import { constantTimeEqual } from '../../common/crypto/constant-time.js';

export type MetricsAccess = 'granted' | 'not_found' | 'unauthorized';

/**
 * Who may read /metrics on a port: nobody on the service's port without METRICS_TOKEN (404, as if it did not
 * exist); with a token, only a request bearing it (compared in constant time). On the separate METRICS_PORT
 * the port itself is the boundary, and the token is asked there too when it is set.
 */
export function metricsAccess(authorization: string | undefined, token: string | undefined, onMetricsPort: boolean): MetricsAccess {
  if (!token) return onMetricsPort ? 'granted' : 'not_found';
  const presented = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
  return presented !== undefined && constantTimeEqual(presented, token) ? 'granted' : 'unauthorized';
}
