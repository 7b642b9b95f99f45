import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { LOOPBACK_RANGES } from './outbound-address.js';
import { InternalError } from '../errors/app-error.js';

/** Why an outbound fetch failed; for the logs only (callers answer their own generic error). */
export class OutboundFetchError extends InternalError {
  constructor(
    message: string,
    /** The network cause (ECONNREFUSED, ETIMEDOUT, a TLS code…) and the host, for logs that say what went wrong. */
    readonly details: { code?: string; host?: string } = {},
  ) {
    super(message);
  }
}

export interface OutboundPolicy {
  /** customer-test: loopback (127.0.0.0/8, ::1) is reachable, for local merchants and tests. Other private ranges never are. */
  allowLoopback: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

// The agents check the address the socket actually connects to, after DNS resolution and inside the
// connection itself: a name that resolved to a public address for a check and to 127.0.0.1 for the
// connection (DNS rebinding) cannot get past them, as it could with a separate lookup before fetch().
// outbound-address answers admins at registration from the same rule; these remain the guard.
const agents = new Map<boolean, { http: RequestFilteringHttpAgent; https: RequestFilteringHttpsAgent }>();
function agentsFor(allowLoopback: boolean) {
  let pair = agents.get(allowLoopback);
  if (!pair) {
    const options = { allowPrivateIPAddress: false, allowMetaIPAddress: false, allowIPAddressList: allowLoopback ? LOOPBACK_RANGES : [] };
    pair = { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
    agents.set(allowLoopback, pair);
  }
  return pair;
}

/**
 * GET of a merchant-supplied URL: http(s) only, no redirects (a 3xx is just a status), bounded in time and
 * size, private and reserved addresses refused at connect time.
 */
export function outboundGet(url: URL, policy: OutboundPolicy, limits: { maxBytes: number; timeoutMs: number; accept: string }): Promise<OutboundResponse> {
  return outboundRequest('GET', url, policy, { ...limits, headers: { accept: limits.accept } });
}

/** POST to a merchant-supplied URL (CIBA callbacks) under the same rules as outboundGet. */
export function outboundPost(
  url: URL,
  policy: OutboundPolicy,
  options: { maxBytes: number; timeoutMs: number; headers: Record<string, string>; body: string },
): Promise<OutboundResponse> {
  return outboundRequest('POST', url, policy, options);
}

export interface OutboundRequestOptions {
  maxBytes: number;
  timeoutMs: number;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** The caller's own abort (e.g. openid-client's timeout), on top of timeoutMs. */
  signal?: AbortSignal;
}

/** Any GET or POST under the same rules (the upstream OpenID client's fetch is built on it). */
export function outboundRequest(method: 'GET' | 'POST', url: URL, policy: OutboundPolicy, limits: OutboundRequestOptions): Promise<OutboundResponse> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return Promise.reject(new OutboundFetchError(`scheme ${url.protocol} is not fetched`));
  const { http, https } = agentsFor(policy.allowLoopback);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    // An abort by our own time limit is a time-out (ETIMEDOUT in the logs), not the caller giving up.
    const failed = (err: NodeJS.ErrnoException) =>
      reject(new OutboundFetchError(`${url.origin}: ${err.message}`, { code: timeout.aborted ? 'ETIMEDOUT' : (err.code ?? err.name), host: url.host }));
    const req = send(url, {
      method,
      agent: url.protocol === 'https:' ? https : http,
      headers: {
        ...limits.headers,
        'user-agent': 'identity-broker',
        ...(limits.body !== undefined ? { 'content-length': String(Buffer.byteLength(limits.body)) } : {}),
      },
      signal: limits.signal ? AbortSignal.any([limits.signal, timeout]) : timeout,
    });
    req.on('error', failed);
    req.on('response', (res) => {
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > limits.maxBytes) {
        res.destroy();
        return reject(new OutboundFetchError(`${url.origin}: answer too large (${declared} bytes)`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > limits.maxBytes) {
          res.destroy();
          return reject(new OutboundFetchError(`${url.origin}: answer too large`));
        }
        chunks.push(chunk);
      });
      res.on('error', failed);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.end(limits.body);
  });
}
