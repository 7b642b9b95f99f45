/**
 * PostgreSQL cannot store U+0000 in text or jsonb: a NUL that reaches a query fails it with a server
 * error. No parameter of the service has a use for one, so requests carrying one are refused at the edge.
 */
export const NUL_REFUSED = 'the request contains a NUL character (U+0000), which no parameter may carry';

/**
 * A lone UTF-16 surrogate (a JSON escape such as "\udfff" with no partner) is no Unicode text: it has no UTF-8
 * form, and PostgreSQL refuses it in jsonb with a server error. Raw bytes cannot make one (invalid UTF-8 decodes
 * to U+FFFD); only JSON escapes can, in a body or in a parameter the engine decodes as JSON.
 */
export const LONE_SURROGATE_REFUSED = 'the request contains ill-formed Unicode (a lone UTF-16 surrogate such as \\udfff), which no parameter may carry';

/** Why a string may not be accepted, or undefined when it may. */
export function refusedTextIn(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_REFUSED;
  if (!text.isWellFormed()) return LONE_SURROGATE_REFUSED;
  return undefined;
}

/** Why a parsed value (string, or arrays and objects of them, keys included) may not be accepted, or undefined. */
export function refusedTextInValue(value: unknown): string | undefined {
  // Iterative, one element at a time: a deep or very wide JSON body must not exhaust the stack here.
  const pending: unknown[] = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === 'string') {
      const refusal = refusedTextIn(v);
      if (refusal) return refusal;
    } else if (Array.isArray(v)) {
      for (const inner of v) pending.push(inner);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, inner] of Object.entries(v)) {
        const refusal = refusedTextIn(k);
        if (refusal) return refusal;
        pending.push(inner);
      }
    }
  }
  return undefined;
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

function refusedTextInJson(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return refusedTextInValue(JSON.parse(trimmed));
  } catch {
    return undefined;
  }
}

/**
 * Why a parameter value is refused one decoding away, where the protocol engine or a scheme decodes it: JSON
 * (`claims`, `binding_message`), a JWT's header or claims (`request`, `client_assertion`, `id_token_hint`), or
 * Base64 of JSON (`binding_message`, `svc_context`). Only decoded JSON counts: Base64 of ordinary words decodes
 * to arbitrary bytes, NUL among them.
 */
export function refusedTextInParameter(value: string): string | undefined {
  const direct = refusedTextInJson(value);
  if (direct) return direct;
  const jws = JWS.exec(value);
  if (jws) {
    const [header, payload] = value.split('.');
    return refusedTextInJson(Buffer.from(header, 'base64url').toString('utf8')) ?? refusedTextInJson(Buffer.from(payload, 'base64url').toString('utf8'));
  }
  return BASE64.test(value) ? refusedTextInJson(Buffer.from(value, /[-_]/.test(value) ? 'base64url' : 'base64').toString('utf8')) : undefined;
}

/** Why any value of parsed form or query parameters is refused once decoded (see refusedTextInParameter). */
export function refusedTextInParameters(params: Record<string, string | string[] | undefined>): string | undefined {
  for (const v of Object.values(params))
    for (const one of Array.isArray(v) ? v : [v]) {
      const refusal = typeof one === 'string' ? refusedTextInParameter(one) : undefined;
      if (refusal) return refusal;
    }
  return undefined;
}
