import { stdSerializers } from 'pino';

/**
 * Fields of database errors (TypeORM's QueryFailedError, pg's DatabaseError) that carry the values of a
 * query: the bound parameters, PostgreSQL's "Key (id)=(…)" detail, the PL/pgSQL context. The SQL text
 * itself (placeholders only), SQLSTATE, table, column and constraint stay: that is what support needs.
 */
const VALUE_FIELDS = new Set(['parameters', 'detail', 'where', 'internalQuery']);
/** PostgreSQL quotes an offending value after a colon: `invalid input syntax for type uuid: "…"`. */
const QUOTED_VALUE = /: "(?:[^"\\]|\\.)*"/g;
const MAX_DEPTH = 5;

/** pino serializer for `err`: the standard one, then no query values anywhere in the error or its causes. */
export function serializeError(err: unknown): unknown {
  return err instanceof Error ? clean(stdSerializers.err(err), 0) : err;
}

function clean(value: unknown, depth: number): unknown {
  if (value instanceof Error) return depth > MAX_DEPTH ? '[error]' : clean(stdSerializers.err(value), depth + 1);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) return '[object]';
  if (Array.isArray(value)) return value.map((v) => clean(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (VALUE_FIELDS.has(key)) continue;
    out[key] = (key === 'message' || key === 'stack') && typeof field === 'string' ? field.replace(QUOTED_VALUE, ': "[redacted]"') : clean(field, depth + 1);
  }
  return out;
}
