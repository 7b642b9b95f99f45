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

const JWS = /^[A-Za-z0-9_-]+\.([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]*$/;
const BASE64 = /^[A-Za-z0-9+/_-]{4,}={0,2}$/;

function jsonHidesNul(text: string): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return false;
  try {
    return containsNul(JSON.parse(trimmed));
  } catch {
    return false;
  }
}

/**
 * Whether a parameter value carries a NUL one decoding away, where the protocol engine or a scheme
 * decodes it: JSON (`claims`, `binding_message`), a JWT's header or claims (`request`,
 * `client_assertion`, `id_token_hint`), or Base64 of JSON (`binding_message`, `svc_context`). Only
 * decoded JSON counts: Base64 of ordinary words decodes to arbitrary bytes, NUL among them.
 */
export function parameterHidesNul(value: string): boolean {
  if (jsonHidesNul(value)) return true;
  const jws = JWS.exec(value);
  if (jws) {
    const [header, payload] = value.split('.');
    return jsonHidesNul(Buffer.from(header, 'base64url').toString('utf8')) || jsonHidesNul(Buffer.from(payload, 'base64url').toString('utf8'));
  }
  return BASE64.test(value) && jsonHidesNul(Buffer.from(value, /[-_]/.test(value) ? 'base64url' : 'base64').toString('utf8'));
}

/** Whether any value of parsed form or query parameters hides a NUL (see parameterHidesNul). */
export function parametersHideNul(params: Record<string, string | string[] | undefined>): boolean {
  return Object.values(params).some((v) => (Array.isArray(v) ? v : [v]).some((one) => typeof one === 'string' && parameterHidesNul(one)));
}
