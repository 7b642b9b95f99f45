import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { plainToInstance, Transform } from 'class-transformer';
import { IsOptional, Matches, validateSync } from 'class-validator';
import { ConfigError } from './app-config.js';
import { readCrlFile } from './client-certificate-crls.js';

const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
const HEADER_MESSAGE = 'must be an HTTP header name (letters, digits and -)';
const PROXY_LIST = /^[0-9A-Fa-f.:/]+(,[0-9A-Fa-f.:/]+)*$/;
const PROXY_MESSAGE = 'must be a comma-separated list of IP addresses or CIDR ranges';

/**
 * TLS client certificates for a service behind a TLS-terminating proxy: the proxy verifies the client's possession
 * of its key in the handshake and passes the certificate on in a header; the service believes that header only from
 * the proxy's own addresses. One setting for every front door that reads it (the engine's mutual TLS, RFC 8705, and
 * SAML artifact resolution). The SAML_ names are the older spelling of the same two variables and still read.
 */
export class ClientCertificateEnvironmentVariables {
  /** The request header carrying the client certificate (nginx: `$ssl_client_escaped_cert`, URL-escaped PEM). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(HEADER_NAME, { message: HEADER_MESSAGE })
  CLIENT_CERT_HEADER?: string;

  /** Comma-separated addresses or CIDR ranges of the proxies trusted to set that header. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(PROXY_LIST, { message: PROXY_MESSAGE })
  CLIENT_CERT_PROXIES?: string;

  /** PEM file of the CAs that issue merchants' certificates for tls_client_auth (RFC 8705 §2.1); unset: that method fails. */
  @Transform(emptyToUndefined)
  @IsOptional()
  CLIENT_CERT_CA_FILE?: string;

  /** PEM (X509 CRL blocks) or DER file of the CRLs of every CA of CLIENT_CERT_CA_FILE; re-read when it changes. */
  @Transform(emptyToUndefined)
  @IsOptional()
  CLIENT_CERT_CRL_FILE?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(HEADER_NAME, { message: HEADER_MESSAGE })
  SAML_CLIENT_CERT_HEADER?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(PROXY_LIST, { message: PROXY_MESSAGE })
  SAML_CLIENT_CERT_PROXIES?: string;
}

export const CLIENT_CERTIFICATE_VARIABLE_NAMES = [
  'CLIENT_CERT_HEADER',
  'CLIENT_CERT_PROXIES',
  'CLIENT_CERT_CA_FILE',
  'CLIENT_CERT_CRL_FILE',
  'SAML_CLIENT_CERT_HEADER',
  'SAML_CLIENT_CERT_PROXIES',
] as const satisfies readonly (keyof ClientCertificateEnvironmentVariables)[];

/** One trusted proxy address or range, as `net.BlockList` takes it. */
export interface ProxyRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** Unset: no request is authenticated by a certificate (the engine's mTLS methods fail, SAML takes HTTP Basic only). */
export interface ClientCertificateConfig {
  header: string;
  proxies: ProxyRange[];
  /** The issuing CAs of tls_client_auth certificates (CLIENT_CERT_CA_FILE); empty: only self-signed, pinned ones are used. */
  trustedIssuers: X509Certificate[];
  /**
   * The CRLs of those CAs (CLIENT_CERT_CRL_FILE, absolute path): checked here for CRLs at all; their signatures and the
   * CAs they cover are checked before the engine serves, and the file is read again when it changes
   * (client-certificate-revocation.ts). Unset: no revocation is checked.
   */
  crlFile?: string;
}

export function loadClientCertificateConfig(env: Record<string, string | undefined>): ClientCertificateConfig | undefined {
  const picked = Object.fromEntries(CLIENT_CERTIFICATE_VARIABLE_NAMES.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
  const vars = plainToInstance(ClientCertificateEnvironmentVariables, picked);
  const problems = validateSync(vars).map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
  if (problems.length) throw new ConfigError(problems);
  const header = aliased(vars, 'CLIENT_CERT_HEADER', 'SAML_CLIENT_CERT_HEADER', (v) => v.toLowerCase());
  const proxies = aliased(vars, 'CLIENT_CERT_PROXIES', 'SAML_CLIENT_CERT_PROXIES', (v) => v);
  if (vars.CLIENT_CERT_CRL_FILE && !vars.CLIENT_CERT_CA_FILE)
    throw new ConfigError(['CLIENT_CERT_CRL_FILE: needs CLIENT_CERT_CA_FILE (the CRLs are those of its CAs)']);
  if (!header && !proxies) {
    if (vars.CLIENT_CERT_CA_FILE)
      throw new ConfigError(['CLIENT_CERT_CA_FILE: needs CLIENT_CERT_HEADER and CLIENT_CERT_PROXIES (certificates come from the proxy)']);
    return undefined;
  }
  if (!header || !proxies)
    throw new ConfigError(['CLIENT_CERT_HEADER and CLIENT_CERT_PROXIES go together: a certificate header is believed only from the proxies named']);
  const ranges = proxies.split(',').map(parseProxyRange);
  const bad = ranges.flatMap((r) => (typeof r === 'string' ? [r] : []));
  if (bad.length) throw new ConfigError(bad.map((b) => `CLIENT_CERT_PROXIES: ${b}`));
  const trustedIssuers = vars.CLIENT_CERT_CA_FILE ? readIssuers(vars.CLIENT_CERT_CA_FILE) : [];
  if (!vars.CLIENT_CERT_CRL_FILE) return { header, proxies: ranges as ProxyRange[], trustedIssuers };
  const crlFile = resolve(vars.CLIENT_CERT_CRL_FILE);
  // Unreadable or without CRLs: refused here, with the other variables; the signatures are checked at start (async).
  readCrlFile(crlFile);
  return { header, proxies: ranges as ProxyRange[], trustedIssuers, crlFile };
}

/** Every certificate of a PEM bundle; a file that cannot be read or holds none is refused at start. */
function readIssuers(file: string): X509Certificate[] {
  let text: string;
  try {
    text = readFileSync(resolve(file), 'utf8');
  } catch {
    throw new ConfigError([`CLIENT_CERT_CA_FILE: no readable file at ${resolve(file)}`]);
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  try {
    const issuers = blocks.map((pem) => new X509Certificate(pem));
    if (issuers.length) return issuers;
  } catch {
    // reported below, as a file without certificates
  }
  throw new ConfigError([`CLIENT_CERT_CA_FILE: ${resolve(file)} holds no readable PEM certificate`]);
}

/** The variable or its older SAML_ spelling; both set to different values is refused (which one would the operator mean?). */
function aliased(
  vars: ClientCertificateEnvironmentVariables,
  name: 'CLIENT_CERT_HEADER' | 'CLIENT_CERT_PROXIES',
  alias: 'SAML_CLIENT_CERT_HEADER' | 'SAML_CLIENT_CERT_PROXIES',
  same: (value: string) => string,
): string | undefined {
  const [value, old] = [vars[name], vars[alias]];
  if (value && old && same(value) !== same(old)) throw new ConfigError([`${alias}: the older name of ${name}, set to another value; set ${name} alone`]);
  return value ? same(value) : old ? same(old) : undefined;
}

/** `10.0.0.5`, `10.0.0.0/24`, `fd00::/8`; a range of every address (prefix 0) is refused: anyone could be the proxy. */
function parseProxyRange(text: string): ProxyRange | string {
  const [address, prefixText, ...rest] = text.split('/');
  const version = isIP(address);
  if (!version || rest.length) return `${text} is not an IP address or CIDR range`;
  const bits = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 1 && prefix <= bits)) return `${text}: the prefix must be 1-${bits} (a range of every address would trust anyone)`;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}
