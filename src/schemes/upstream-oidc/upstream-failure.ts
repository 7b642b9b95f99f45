import { OutboundFetchError } from '../../common/outbound/outbound-fetch.js';

/** Why a call to an upstream failed, for the merchant's error and the log line (never a token or code). */
export interface UpstreamFailure {
  /** The upstream could not be reached or failed on its side (network, TLS, timeout, 5xx): temporarily_unavailable. */
  unavailable: boolean;
  /** ECONNREFUSED, ETIMEDOUT, CERT_HAS_EXPIRED, http_503, invalid_client, OAUTH_JWT_TIMESTAMP_CHECK… */
  code: string;
  host?: string;
  reason: string;
}

/** openid-client's own time-outs and aborts (its `timeout` option), which never reach our fetch as an error. */
const TRANSPORT_CODES = new Set(['OAUTH_TIMEOUT', 'OAUTH_ABORT']);

/**
 * Reads an error of openid-client (which wraps what our fetch throws as "something went wrong", the cause
 * underneath) down its cause chain: a fetch that failed below HTTP, or an answer with a 5xx status, is the
 * upstream being unreachable; anything else is an answer we refused (a bad token, invalid_client).
 */
export function upstreamFailure(err: unknown): UpstreamFailure {
  const chain = causes(err);
  const network = chain.find((e): e is OutboundFetchError => e instanceof OutboundFetchError);
  if (network) return { unavailable: true, code: network.details.code ?? 'fetch_refused', host: network.details.host, reason: short(network.message) };
  const status = chain.map(statusOf).find((s) => s !== undefined);
  const first = chain[0] as { code?: string; error?: string; message?: string } | undefined;
  if (status !== undefined && status >= 500) return { unavailable: true, code: `http_${status}`, reason: describe(first) };
  const timeout = chain.find((e) => TRANSPORT_CODES.has(String((e as { code?: unknown }).code)));
  if (timeout) return { unavailable: true, code: String((timeout as { code: string }).code), reason: describe(first) };
  // An OAuth error answer names its error code (invalid_client, invalid_grant), which says more than the wrapper.
  const oauthError = chain.map(oauthErrorOf).find((e): e is string => typeof e === 'string');
  return { unavailable: false, code: oauthError ?? first?.code ?? 'refused', reason: describe(first) };
}

function causes(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = err; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

/** From an error answer's body, or from its WWW-Authenticate challenge (a 401 invalid_client comes that way). */
function oauthErrorOf(e: unknown): unknown {
  const { error, cause } = e as { error?: unknown; cause?: unknown };
  if (error !== undefined) return error;
  if (Array.isArray(cause)) return (cause as Array<{ parameters?: { error?: unknown } }>).map((c) => c?.parameters?.error).find((v) => typeof v === 'string');
  return undefined;
}

function statusOf(e: unknown): number | undefined {
  if (e instanceof Response) return e.status;
  const status = (e as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

/** openid-client's code and message; its messages name claims and statuses, never their values. */
function describe(e: { code?: string; message?: string } | undefined): string {
  return short([e?.code, e?.message].filter(Boolean).join(': ') || 'unknown error');
}

function short(text: string): string {
  return text.slice(0, 300);
}
