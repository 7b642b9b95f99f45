import { createHash, timingSafeEqual, X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4 } from 'node:net';
import type { ClientCertificateConfig, ProxyRange } from '../../config/client-certificate-config.js';
import { logger } from '../logging/logger.js';

/** Far more than a client certificate with its extensions takes, URL-escaped (nginx's header is ~1.5-3 KB). */
const MAX_HEADER_LENGTH = 16 * 1024;

/**
 * The client certificate a TLS-terminating proxy verified in the handshake and passed on in a header
 * (CLIENT_CERT_HEADER), the one mechanism every front door reads it through. The header is believed only on a
 * connection from one of the configured proxy addresses (CLIENT_CERT_PROXIES: the socket's own peer, never
 * X-Forwarded-For); from anyone else it is ignored (and logged), so a client cannot name a certificate it does not hold.
 */
export class ForwardedClientCertificates {
  private readonly proxies = new BlockList();
  /** A request's certificate, read once (the engine asks for it at client authentication and again to bind the token). */
  private readonly read = new WeakMap<IncomingMessage, X509Certificate | null>();

  /** Undefined when the setting is absent: then no request has a certificate. */
  static of(setting: ClientCertificateConfig | undefined): ForwardedClientCertificates | undefined {
    return setting && new ForwardedClientCertificates(setting.header, setting.proxies);
  }

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

  /**
   * The certificate the trusted proxy verified for this request; undefined without one, or when the request did not
   * come through a trusted proxy (`door` names the reader in the log line of an ignored header).
   */
  certificateOf(req: IncomingMessage, door: string): X509Certificate | undefined {
    const known = this.read.get(req);
    if (known !== undefined) return known ?? undefined;
    const forwarded = this.fromTrustedProxy(req.socket?.remoteAddress, req.headers);
    if (forwarded === undefined && this.carriesHeader(req.headers))
      logger.warn({ door }, 'a client certificate header from an address that is not a trusted proxy was ignored');
    const certificate = parseForwardedCertificate(forwarded);
    this.read.set(req, certificate ?? null);
    return certificate;
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
