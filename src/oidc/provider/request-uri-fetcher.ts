import { AppError } from '../../common/errors/app-error.js';
import { outboundGet, OutboundFetchError, type OutboundPolicy } from '../../common/outbound/outbound-fetch.js';

/**
 * Every request_uri failure answers the same description: a status, a timeout or a refused connection
 * told apart would make the authorization endpoint a port scanner. The reason is in `detail` (logs only).
 */
export class RequestUriError extends AppError {
  constructor(detail: string) {
    super(400, 'invalid_request_uri', 'the request_uri could not be used', detail);
  }
}

export const MAX_REQUEST_OBJECT_BYTES = 64 * 1024;
const TIMEOUT_MS = 5000;

/**
 * Fetches a request object passed by reference (spec 4.2 `request_uri`) from a URL the merchant registered
 * (checked by the caller before this is called). Bounded in size and time, no redirects, private addresses
 * refused at connect time (see outbound-fetch). Over plain http only a signed object is acceptable (spec 4.2):
 * its signature is then verified by the engine against the merchant's key like any request object.
 */
export async function fetchRequestObject(requestUri: string, policy: OutboundPolicy): Promise<string> {
  let url: URL;
  try {
    url = new URL(requestUri);
  } catch {
    throw new RequestUriError('request_uri is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RequestUriError(`request_uri scheme ${url.protocol} refused`);
  url.hash = '';
  let response;
  try {
    response = await outboundGet(url, policy, {
      maxBytes: MAX_REQUEST_OBJECT_BYTES,
      timeoutMs: TIMEOUT_MS,
      accept: 'application/oauth-authz-req+jwt, application/jwt',
    });
  } catch (e) {
    throw new RequestUriError(`request_uri could not be fetched: ${e instanceof OutboundFetchError ? e.message : String(e)}`);
  }
  if (response.status !== 200) throw new RequestUriError(`request_uri answered ${response.status}`);
  const jwt = response.body.toString('utf8').trim();
  const parts = jwt.split('.');
  if (parts.length !== 3 && parts.length !== 5) throw new RequestUriError('request_uri did not return a JWT');
  if (url.protocol === 'http:' && !isSigned(parts)) throw new RequestUriError('request_uri over plain http needs a signed request object');
  return jwt;
}

function isSigned(parts: string[]): boolean {
  if (parts.length !== 3) return true; // encrypted (JWE): the engine decrypts and checks the inner signature
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as { alg?: string };
    return typeof header.alg === 'string' && header.alg !== 'none' && parts[2] !== '';
  } catch {
    return false;
  }
}
