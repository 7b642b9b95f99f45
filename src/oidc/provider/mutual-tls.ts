import type { X509Certificate } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { ForwardedClientCertificates } from '../../common/http/forwarded-client-certificate.js';
import type { ClientCertificateConfig } from '../../config/client-certificate-config.js';
import { subjectNamed } from '../../common/http/distinguished-name.js';
import type { ClientCertificateRevocation } from './client-certificate-revocation.js';

/** The RFC 8705 §2.1.2 registration members that name the certificate's subject (one per merchant). */
export type SubjectProperty =
  'tls_client_auth_subject_dn' | 'tls_client_auth_san_dns' | 'tls_client_auth_san_uri' | 'tls_client_auth_san_ip' | 'tls_client_auth_san_email';

/** Node's subjectAltName prefix for each SAN member. */
const SAN_PREFIX: Record<Exclude<SubjectProperty, 'tls_client_auth_subject_dn'>, string> = {
  tls_client_auth_san_dns: 'DNS:',
  tls_client_auth_san_uri: 'URI:',
  tls_client_auth_san_ip: 'IP Address:',
  tls_client_auth_san_email: 'email:',
};

/**
 * RFC 8705 for the engine (features.mTLS): the certificate is the one the TLS-terminating proxy verified and passed on
 * (CLIENT_CERT_HEADER, believed only from CLIENT_CERT_PROXIES); the service itself never sees a handshake. Without
 * that setting no request has a certificate: every mTLS client authentication fails and certificate-bound tokens
 * cannot be issued or used. The mTLS endpoints are the ordinary ones (the proxy asks every client for a certificate,
 * optionally), so there are no `mtls_endpoint_aliases`. With CLIENT_CERT_CRL_FILE, a tls_client_auth certificate must
 * also have been found not revoked, before the engine asked (client-certificate-revocation.ts).
 */
export function mutualTlsFeature(setting: ClientCertificateConfig | undefined, revocation?: ClientCertificateRevocation) {
  const certificates = ForwardedClientCertificates.of(setting);
  const certificateOf = (ctx: KoaContextWithOIDC) => certificates?.certificateOf(ctx.req, 'oidc mutual tls');
  return {
    enabled: true,
    certificateBoundAccessTokens: true,
    selfSignedTlsClientAuth: true,
    tlsClientAuth: true,
    getCertificate: certificateOf,
    certificateAuthorized: (ctx: KoaContextWithOIDC) => {
      const certificate = certificateOf(ctx);
      if (!certificate || !setting?.trustedIssuers.some((issuer) => isIssuedBy(certificate, issuer))) return false;
      return revocation ? revocation.isCleared(ctx.req, certificate) : true;
    },
    certificateSubjectMatches: (ctx: KoaContextWithOIDC, property: string, expected: string) => {
      const certificate = certificateOf(ctx);
      return Boolean(certificate && subjectMatches(certificate, property as SubjectProperty, expected));
    },
  };
}

/**
 * RFC 8705 §2.1 (PKI method): issued directly by one of the operator's issuing CAs (CLIENT_CERT_CA_FILE; the proxy's
 * header carries the leaf alone, so the CA that signed it must be listed, an intermediate included) and valid now.
 */
export function isIssuedBy(certificate: X509Certificate, issuer: X509Certificate, now = new Date()): boolean {
  if (!(new Date(certificate.validFrom) <= now && now <= new Date(certificate.validTo))) return false;
  return certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey);
}

/**
 * RFC 8705 §2.1.2: the registered value against the certificate. The subject DN is compared as a structure
 * (distinguished-name.ts: attribute types by OID, values exact, RDNs most specific first); a SAN value must be one of
 * the certificate's entries of that type, exactly.
 */
export function subjectMatches(certificate: X509Certificate, property: SubjectProperty, expected: string): boolean {
  if (property === 'tls_client_auth_subject_dn') return subjectNamed(certificate.raw, expected);
  const prefix = SAN_PREFIX[property];
  if (!prefix) return false;
  const entries = (certificate.subjectAltName ?? '').split(', ').filter((entry) => entry.startsWith(prefix));
  return entries.some((entry) => entry.slice(prefix.length) === expected);
}
