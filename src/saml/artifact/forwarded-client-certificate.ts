import { createHash, timingSafeEqual, X509Certificate } from 'node:crypto';
import { BlockList, isIPv4 } from 'node:net';
import type { ProxyRange } from '../../config/saml-config.js';

/** Far more than a client certificate with its extensions takes, URL-escaped (nginx's header is ~1.5-3 KB). */
const MAX_HEADER_LENGTH = 16 * 1024;

/**
 * The client certificate a TLS-terminating proxy verified in the handshake and passed on in a header. The
 * header is believed only on a connection from one of the configured proxy addresses (the socket's own peer,
 * never X-Forwarded-For); from anyone else it is ignored, so a client cannot name a certificate it does not hold.
 */
export class ForwardedClientCertificates {
  private readonly proxies = new BlockList();

  constructor(
    private readonly header: string,
    proxies: ProxyRange[],
  ) {
    for (const range of proxies) this.proxies.addSubnet(range.address, range.prefix, range.family);
  }

  /** The header's value when the connection comes from a trusted proxy; undefined otherwise or when absent. */
  fromTrustedProxy(peerAddress: string | undefined, headers: Record<string, string | string[] | undefined>): string | undefined {
    if (!peerAddress || !this.isTrustedProxy(peerAddress)) return undefined;
    const value = headers[this.header];
    return typeof value === 'string' ? value : undefined;
  }

  /** Whether a request carries the header at all (to log one that came from somewhere else). */
  carriesHeader(headers: Record<string, string | string[] | undefined>): boolean {
    return headers[this.header] !== undefined;
  }

  private isTrustedProxy(peerAddress: string): boolean {
    // An IPv4 peer on a dual-stack socket is reported as ::ffff:a.b.c.d; the ranges name it as a.b.c.d.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(peerAddress)?.[1];
    const address = mapped ?? peerAddress;
    return this.proxies.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
  }
}

/**
 * The certificate in a proxy's header: URL-escaped PEM (nginx `$ssl_client_escaped_cert`), plain PEM, or
 * base64 DER (HAProxy `ssl_c_der,base64`). Empty or `-` (no certificate presented) and anything unreadable
 * give undefined: the request is then not authenticated by a certificate.
 */
export function parseForwardedCertificate(value: string | undefined): X509Certificate | undefined {
  if (!value || value === '-' || value.length > MAX_HEADER_LENGTH) return undefined;
  try {
    const text = value.includes('%') ? decodeURIComponent(value) : value;
    if (text.includes('-----BEGIN CERTIFICATE-----')) return new X509Certificate(text);
    const base64 = text.replace(/\s+/g, '');
    return /^[A-Za-z0-9+/]+={0,2}$/.test(base64) ? new X509Certificate(Buffer.from(base64, 'base64')) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the presented certificate is the registered one (the same DER, compared as SHA-256 digests in
 * constant time) and is valid now. The registered certificate is pinned: the proxy need not know a CA for it.
 */
export function isRegisteredCertificate(presented: X509Certificate, registeredPem: string | null | undefined, now = new Date()): boolean {
  if (!registeredPem) return false;
  let registered: X509Certificate;
  try {
    registered = new X509Certificate(registeredPem);
  } catch {
    return false;
  }
  const same = timingSafeEqual(digest(presented), digest(registered));
  return same && new Date(presented.validFrom) <= now && now <= new Date(presented.validTo);
}

const digest = (cert: X509Certificate) => createHash('sha256').update(cert.raw).digest();
