import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export class RequestUriError extends Error {}

export const MAX_REQUEST_OBJECT_BYTES = 64 * 1024;
const TIMEOUT_MS = 5000;

const privateRanges = new BlockList();
for (const [net, bits] of [
  ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['127.0.0.0', 8], ['169.254.0.0', 16], ['0.0.0.0', 8], ['100.64.0.0', 10],
] as const) privateRanges.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::1', 128], ['fc00::', 7], ['fe80::', 10], ['::', 128]] as const) privateRanges.addSubnet(net, bits, 'ipv6');

async function assertPublicHost(hostname: string): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  for (const { address, family } of addresses) {
    if (privateRanges.check(address, family === 6 ? 'ipv6' : 'ipv4')) throw new RequestUriError('request_uri points to a private address');
  }
}

/**
 * Fetches a request object passed by reference (spec 4.2 `request_uri`). Bounded in size and time,
 * no redirects; in production private and loopback addresses are refused (no server-side request
 * forgery into our network). Over plain http only a signed object is acceptable (spec 4.2): its
 * signature is then verified by the engine against the merchant's key like any request object.
 */
export async function fetchRequestObject(requestUri: string, allowPrivateAddresses: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(requestUri);
  } catch {
    throw new RequestUriError('request_uri is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RequestUriError('request_uri must be an https URL');
  if (!allowPrivateAddresses) await assertPublicHost(url.hostname);
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/oauth-authz-req+jwt, application/jwt' } });
  } catch {
    throw new RequestUriError('request_uri could not be fetched');
  }
  if (!response.ok) throw new RequestUriError(`request_uri answered ${response.status}`);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_REQUEST_OBJECT_BYTES) throw new RequestUriError('request object is too large');
  const body = await readBounded(response);
  const jwt = body.trim();
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

async function readBounded(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_REQUEST_OBJECT_BYTES) {
      await reader.cancel();
      throw new RequestUriError('request object is too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
