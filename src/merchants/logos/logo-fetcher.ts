import { createHash } from 'node:crypto';
import { OutboundFetchError, outboundGet, type OutboundPolicy } from '../../common/outbound/outbound-fetch.js';
import { inspectLogo, LOGO_TYPES, type LogoImage } from '../../config/logo-image.js';
import { MerchantLogoError } from './logo.errors.js';

export const MAX_LOGO_BYTES = 256 * 1024;
const TIMEOUT_MS = 5000;
const LOCALHOST = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface FetchedLogo extends LogoImage {
  sha256: string;
  bytes: Buffer;
}

/**
 * Fetches a merchant's logo once, when an admin registers it, under the request_uri rules (outboundGet:
 * http(s) only, no redirects, private and reserved addresses refused at connect time, loopback only in
 * customer-test), bounded in size and time. https only, as for every merchant URL, plain http only for
 * localhost in customer-test: checked before anything is fetched. The bytes are what we serve, so they
 * are checked by content (inspectLogo), never by the server's Content-Type.
 */
export async function fetchLogo(logoUri: string, policy: OutboundPolicy): Promise<FetchedLogo> {
  const url = new URL(logoUri);
  if (url.protocol !== 'https:' && !(policy.allowLoopback && url.protocol === 'http:' && LOCALHOST.has(url.hostname)))
    throw new MerchantLogoError(`must use https${policy.allowLoopback ? ' (plain http only for localhost in customer-test)' : ''}`);
  let response;
  try {
    response = await outboundGet(url, policy, { maxBytes: MAX_LOGO_BYTES, timeoutMs: TIMEOUT_MS, accept: LOGO_TYPES.join(', ') });
  } catch (e) {
    const detail = e instanceof OutboundFetchError ? e.message : String(e);
    if (/too large/.test(detail)) throw new MerchantLogoError(`is larger than ${MAX_LOGO_BYTES / 1024} KiB`, detail);
    throw new MerchantLogoError('could not be fetched (no answer, a refused address, or too slow)', detail);
  }
  if (response.status !== 200) throw new MerchantLogoError(`answered HTTP ${response.status}, not 200 (redirects are not followed)`);
  let image: LogoImage;
  try {
    image = inspectLogo(response.body);
  } catch (e) {
    throw new MerchantLogoError((e as Error).message);
  }
  return { ...image, bytes: response.body, sha256: createHash('sha256').update(response.body).digest('hex') };
}
