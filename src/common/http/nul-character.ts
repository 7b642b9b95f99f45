/**
 * PostgreSQL cannot store U+0000 in text or jsonb: a NUL that reaches a query fails it with a server
 * error. No parameter of the service has a use for one, so requests carrying one are refused at the edge.
 */
export const NUL_REFUSED = 'the request contains a NUL character (U+0000), which no parameter may carry';

/** Whether a parsed value (string, or arrays and objects of them, keys included) contains U+0000. */
export function containsNul(value: unknown): boolean {
  // Iterative: a deeply nested JSON body must not exhaust the stack here.
  const pending: unknown[] = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      pending.push(...v);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, inner] of Object.entries(v)) {
        if (k.includes('\u0000')) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

/** Whether a raw request target (path and query as sent) decodes to a NUL anywhere. */
export function urlContainsNul(rawUrl: string): boolean {
  return rawUrl.includes('%00') || rawUrl.includes('\u0000');
}

/** Whether HTTP Basic credentials decode to a NUL (also form-encoded as %00, which RFC 6749 §2.3.1 decodes). */
export function basicCredentialsContainNul(authorization: string | undefined): boolean {
  if (!authorization || !/^basic /i.test(authorization)) return false;
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('latin1');
  return decoded.includes('\u0000') || decoded.includes('%00');
}
