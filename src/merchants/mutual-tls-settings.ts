import { parseDistinguishedName } from '../common/http/distinguished-name.js';

/** A merchant's RFC 8705 settings, as the policy checks them. */
export interface MutualTlsSettings {
  tlsClientAuthSubjectDn?: string | null;
  tlsClientAuthSanDns?: string | null;
  tlsClientAuthSanUri?: string | null;
  tlsClientAuthSanIp?: string | null;
  tlsClientAuthSanEmail?: string | null;
}

const SUBJECT_FIELDS = [
  ['tls_client_auth_subject_dn', 'tlsClientAuthSubjectDn'],
  ['tls_client_auth_san_dns', 'tlsClientAuthSanDns'],
  ['tls_client_auth_san_uri', 'tlsClientAuthSanUri'],
  ['tls_client_auth_san_ip', 'tlsClientAuthSanIp'],
  ['tls_client_auth_san_email', 'tlsClientAuthSanEmail'],
] as const;

/**
 * RFC 8705 §2.1.2: a tls_client_auth merchant names exactly one subject member, and only such a merchant names one
 * (a subject kept for another method would be a setting that does nothing). §2.2: self_signed_tls_client_auth needs
 * the certificate in its key set (x5c of a key in jwks, or its jwks_uri set, which is only known when fetched).
 */
export function mutualTlsSettingProblems(
  s: MutualTlsSettings & { tokenEndpointAuthMethod: string; jwks: { keys: unknown[] } | null; jwksUri: string | null },
  add: (field: string, message: string) => void,
): void {
  const named = SUBJECT_FIELDS.filter(([, prop]) => s[prop]).map(([field]) => field);
  if (s.tokenEndpointAuthMethod === 'tls_client_auth') {
    if (named.length !== 1) add('token_endpoint_auth_method', `tls_client_auth needs exactly one of ${SUBJECT_FIELDS.map(([f]) => f).join(', ')}`);
  } else for (const field of named) add(field, 'only with token_endpoint_auth_method tls_client_auth');
  // A DN the comparison cannot read would never match: refused now rather than failing every sign-in later.
  if (s.tlsClientAuthSubjectDn && !parseDistinguishedName(s.tlsClientAuthSubjectDn))
    add(
      'tls_client_auth_subject_dn',
      'not an RFC 4514 DN this service reads (types: CN, O, OU, C, L, ST, serialNumber, organizationIdentifier… or dotted OIDs; no #hex values)',
    );
  if (s.tokenEndpointAuthMethod === 'self_signed_tls_client_auth') {
    const withCertificate = s.jwks?.keys.some((k) => Array.isArray((k as { x5c?: unknown }).x5c) && (k as { x5c: unknown[] }).x5c.length > 0);
    if (!s.jwksUri && !withCertificate)
      add('token_endpoint_auth_method', 'self_signed_tls_client_auth needs a key with its certificate (x5c) in jwks, or jwks_uri');
  }
}

/** The RFC 8705 subject members of a merchant row. */
export function mutualTlsSettingsOf(m: MutualTlsSettings): MutualTlsSettings {
  return Object.fromEntries(SUBJECT_FIELDS.map(([, prop]) => [prop, m[prop] ?? null])) as MutualTlsSettings;
}
