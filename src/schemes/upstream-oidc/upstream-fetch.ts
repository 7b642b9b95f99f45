import type { CustomFetch, CustomFetchOptions } from 'openid-client';
import { OutboundFetchError, type OutboundPolicy, outboundRequest } from '../../common/outbound/outbound-fetch.js';

/** Discovery documents, JWKS, token and user-info answers: generous for real ones, small enough to hold in memory. */
export const UPSTREAM_MAX_BYTES = 512 * 1024;
export const UPSTREAM_TIMEOUT_MS = 10_000;

/** Statuses whose Response may not carry a body (the Fetch API throws if given one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * openid-client's fetch for one scheme (discovery, JWKS, token, user-info alike). An admin registers the
 * issuer and the upstream's discovery names every other endpoint, so none of those addresses is trusted:
 * each request goes through the merchant-URL rules of outbound-fetch (private and reserved addresses
 * refused at connect time, after DNS, so rebinding gets nowhere; bounded in size and time; a redirect is
 * only a status, never followed). Loopback only for a customer-test scheme outside production.
 */
export function upstreamFetch(policy: OutboundPolicy): CustomFetch {
  return async (url: string, options: CustomFetchOptions): Promise<Response> => {
    const method = options.method.toUpperCase();
    if (method !== 'GET' && method !== 'POST') throw new OutboundFetchError(`method ${method} is not sent upstream`);
    const answer = await outboundRequest(method, new URL(url), policy, {
      maxBytes: UPSTREAM_MAX_BYTES,
      timeoutMs: UPSTREAM_TIMEOUT_MS,
      headers: options.headers,
      body: bodyOf(options.body),
      signal: options.signal,
    });
    if (answer.status < 200 || answer.status > 599) throw new OutboundFetchError(`${new URL(url).origin}: status ${answer.status}`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
    }
    return new Response(NULL_BODY.has(answer.status) ? null : new Uint8Array(answer.body), { status: answer.status, headers });
  };
}

function bodyOf(body: CustomFetchOptions['body']): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  // openid-client streams nothing to an upstream; a stream here would escape the size rules.
  throw new OutboundFetchError('streamed request bodies are not sent upstream');
}
