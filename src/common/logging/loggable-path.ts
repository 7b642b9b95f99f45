/**
 * Paths whose last segment is a bearer secret: whoever reads it can act on it. A credential offer's handle gives the
 * pre-authorized code (the transaction code still guards it); a revocation handle revokes a person's credentials.
 * The access log writes them as the route, never the value.
 */
const SECRET_SEGMENTS: readonly (readonly [RegExp, string])[] = [
  [/^\/vci\/offers\/[^/]+/, '/vci/offers/:handle'],
  [/^\/vci\/revoke\/[^/]+/, '/vci/revoke/:handle'],
];

/** The request path as the logs may keep it: no query (codes and tokens), no secret segment. */
export function loggablePath(originalUrl: string): string {
  const path = originalUrl.split('?')[0];
  for (const [pattern, route] of SECRET_SEGMENTS) if (pattern.test(path)) return path.replace(pattern, route);
  return path;
}
