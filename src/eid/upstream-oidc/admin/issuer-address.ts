import { BlockList, isIP } from 'node:net';

/**
 * Ranges no production upstream lives in. Only a first, clear answer to an admin who typed one: the
 * guard is the connect-time filter (outbound-fetch), which also catches a name that resolves here.
 */
const RESERVED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 3],
] as const) RESERVED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['::ffff:0:0', 96]] as const) RESERVED.addSubnet(net, prefix, 'ipv6');

/** Whether an issuer URL names a loopback, private, link-local or reserved address literally (or localhost). */
export function namesReservedAddress(issuer: string): boolean {
  let host: string;
  try {
    host = new URL(issuer).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  return family !== 0 && RESERVED.check(host, family === 4 ? 'ipv4' : 'ipv6');
}
