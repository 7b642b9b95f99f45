/**
 * The subjectAltName entries of a certificate (RFC 5280 §4.2.1.6), read with @peculiar/x509's ASN.1 decoder rather
 * than from Node's `subjectAltName` text, whose commas and quoting a crafted name could play with.
 */
// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import type { X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';

export interface SubjectAltNames {
  /** dNSName entries, lower case, without a trailing dot (DNS names compare case-insensitively, RFC 5280 §7.2). */
  dns: string[];
  /** uniformResourceIdentifier entries, as written (compared as strings, RFC 3986 §6.2.1). */
  uri: string[];
}

/** By fingerprint: the ASN.1 parse costs about 0.85 ms, and presentations bring the same few issuer certificates. */
const known = new Map<string, SubjectAltNames>();
const MAX_KNOWN = 1000;

export function subjectAltNames(certificate: X509Certificate): SubjectAltNames {
  const key = certificate.fingerprint256;
  const cached = known.get(key);
  if (cached) return cached;
  const names = new x509.X509Certificate(certificate.raw).getExtension(x509.SubjectAlternativeNameExtension)?.names.items ?? [];
  const result = {
    dns: names.filter((n) => n.type === 'dns').map((n) => n.value.toLowerCase().replace(/\.$/, '')),
    uri: names.filter((n) => n.type === 'url').map((n) => n.value),
  };
  known.set(key, result);
  if (known.size > MAX_KNOWN) known.delete(known.keys().next().value as string);
  return result;
}
