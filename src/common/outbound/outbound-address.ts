import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { OutboundPolicy } from './outbound-fetch.js';

/**
 * The registration half of the outbound address rule: a first, clear answer (a 400 naming the field) to an
 * admin who registers a URL we would never reach. The guard stays the connect-time filter of outbound-fetch
 * (request-filtering-agent: global unicast only, loopback in customer-test), which also catches a name that
 * resolves here only later (DNS rebinding). These ranges are those that filter refuses (its ipaddr.js
 * special ranges; src/common/outbound/outbound-address.spec.ts sends to one address of each), plus IPv4-compatible
 * ::/96, which it lets through and which never holds a merchant or an upstream.
 */
const RESERVED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  RESERVED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2001:3::', 32],
  ['2001:10::', 28],
  ['2001:20::', 28],
  ['2001:30::', 28],
  ['2002::', 16],
  ['2620:4f:8000::', 48],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  RESERVED.addSubnet(net, prefix, 'ipv6');

const MAPPED = new BlockList();
MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

/**
 * What customer-test may reach besides the public internet, at connect time (outbound-fetch's allow list) and
 * here alike: all of 127/8 (a local test upstream listens on 127.0.0.2) and ::1; no IPv4-mapped form.
 */
export const LOOPBACK_RANGES = ['127.0.0.0/8', '::1'];
const LOOPBACK = new BlockList();
for (const range of LOOPBACK_RANGES) {
  const [net, prefix] = range.split('/');
  const family = isIP(net) === 4 ? 'ipv4' : 'ipv6';
  if (prefix) LOOPBACK.addSubnet(net, Number(prefix), family);
  else LOOPBACK.addAddress(net, family);
}

/** Names that only ever lead inside: special-use and private-use domains (RFC 6761, 6762, 8375, ICANN's .internal). */
const INSIDE_DOMAINS = ['localhost', 'local', 'localdomain', 'internal', 'home.arpa'];
const RESOLVE_TIMEOUT_MS = 2000;

export type Resolve = (host: string) => Promise<string[]>;

const systemResolve: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Whether an IP address (no brackets) is one outbound requests never reach under the policy. */
export function isReservedAddress(address: string, policy: OutboundPolicy): boolean {
  const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  // Any IPv4-mapped IPv6 address, loopback included, as the connect-time filter. (Not in RESERVED: a BlockList
  // matches every IPv4 address against ::ffff:0:0/96, so that subnet there would refuse them all.)
  if (family === 'ipv6' && MAPPED.check(address, 'ipv6')) return true;
  if (policy.allowLoopback && LOOPBACK.check(address, family)) return false;
  return RESERVED.check(address, family);
}

/**
 * Why a URL's host is one outbound requests never reach, judged from the URL alone: a reserved address
 * written literally (WHATWG parsing has already turned `2130706433`, `127.1` or `0x7f.1` into 127.0.0.1, and
 * `[::ffff:a9fe:a9fe]` is IPv4-mapped), an IPv4 address written other than as four decimal numbers (only ever
 * a way round a filter, refused in every environment), or a name that only leads inside: localhost and
 * `*.localhost` (allowed with loopback), `.local`, `.internal` (metadata.google.internal), `.home.arpa`, and
 * names without a dot (`metadata`, `instance-data`). Undefined when nothing is wrong, or for no URL at all.
 */
export function urlAddressProblem(value: string, policy: OutboundPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIP(host)) {
    if (isIP(host) === 4 && writtenHost(value) !== host) return `writes the IPv4 address ${host} in another form than four decimal numbers`;
    return isReservedAddress(host, policy) ? `is at a loopback, private, link-local or reserved address${loopbackNote(policy)}` : undefined;
  }
  const loopbackName = host === 'localhost' || host.endsWith('.localhost');
  if (loopbackName && policy.allowLoopback) return undefined;
  if (!host.includes('.') || INSIDE_DOMAINS.some((d) => host === d || host.endsWith(`.${d}`)))
    return `names a host that only leads inside (localhost, .local, .internal, a cloud metadata name, a name without a dot)${loopbackNote(policy)}`;
  return undefined;
}

/**
 * urlAddressProblem, then what the host name resolves to now (as the connect-time filter will judge it).
 * A name that does not resolve (yet) passes: delivery checks again at every connection.
 */
export async function resolvedUrlAddressProblem(value: string, policy: OutboundPolicy, resolve: Resolve = systemResolve): Promise<string | undefined> {
  const literal = urlAddressProblem(value, policy);
  if (literal) return literal;
  const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return undefined;
  let timer: NodeJS.Timeout | undefined;
  let addresses: string[];
  try {
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no answer')), RESOLVE_TIMEOUT_MS)));
    addresses = await Promise.race([resolve(host), timeout]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
  const inside = addresses.find((a) => isReservedAddress(a, policy));
  return inside ? `resolves to a loopback, private, link-local or reserved address${loopbackNote(policy)}` : undefined;
}

/** Whether an issuer URL names a loopback, private, link-local or reserved address literally, or a name that only leads inside. */
export function namesReservedAddress(issuer: string): boolean {
  return urlAddressProblem(issuer, { allowLoopback: false }) !== undefined;
}

function loopbackNote(policy: OutboundPolicy): string {
  return policy.allowLoopback ? ' (only loopback is reachable here, in customer-test)' : '';
}

/** The host as written in the URL, before WHATWG parsing rewrote it (`https://2130706433/` gives `2130706433`). */
function writtenHost(value: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:[/\\]*([^/\\?#]*)/i.exec(value)?.[1] ?? '';
  return authority
    .slice(authority.lastIndexOf('@') + 1)
    .replace(/:\d*$/, '')
    .replace(/\.$/, '')
    .toLowerCase();
}
