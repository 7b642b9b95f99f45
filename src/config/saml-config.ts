import { isIP } from 'node:net';
import { plainToInstance, Transform } from 'class-transformer';
import { IsOptional, Matches, validateSync } from 'class-validator';
import { ConfigError } from './app-config.js';

const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * TLS client authentication of SAML artifact resolution, for a service behind a TLS-terminating proxy: the
 * proxy verifies the client's possession of its key in the handshake and passes the certificate in a header;
 * the service believes that header only from the proxy's own addresses. Both variables or neither.
 */
export class SamlEnvironmentVariables {
  /** The request header carrying the client certificate (nginx: `$ssl_client_escaped_cert`, URL-escaped PEM). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9-]{1,64}$/, { message: 'must be an HTTP header name (letters, digits and -)' })
  SAML_CLIENT_CERT_HEADER?: string;

  /** Comma-separated addresses or CIDR ranges of the proxies trusted to set that header. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[0-9A-Fa-f.:/]+(,[0-9A-Fa-f.:/]+)*$/, { message: 'must be a comma-separated list of IP addresses or CIDR ranges' })
  SAML_CLIENT_CERT_PROXIES?: string;
}

export const SAML_VARIABLE_NAMES = ['SAML_CLIENT_CERT_HEADER', 'SAML_CLIENT_CERT_PROXIES'] as const satisfies readonly (keyof SamlEnvironmentVariables)[];

/** One trusted proxy address or range, as `net.BlockList` takes it. */
export interface ProxyRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

export interface SamlConfig {
  /** Unset: artifact resolution authenticates with HTTP Basic only. */
  clientCertificate?: { header: string; proxies: ProxyRange[] };
}

export function loadSamlConfig(env: Record<string, string | undefined>): SamlConfig {
  const picked = Object.fromEntries(SAML_VARIABLE_NAMES.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
  const vars = plainToInstance(SamlEnvironmentVariables, picked);
  const problems = validateSync(vars).map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
  if (problems.length) throw new ConfigError(problems);
  const { SAML_CLIENT_CERT_HEADER: header, SAML_CLIENT_CERT_PROXIES: proxies } = vars;
  if (!header && !proxies) return {};
  if (!header || !proxies)
    throw new ConfigError(['SAML_CLIENT_CERT_HEADER and SAML_CLIENT_CERT_PROXIES go together: a certificate header is believed only from the proxies named']);
  const ranges = proxies.split(',').map(parseProxyRange);
  const bad = ranges.flatMap((r) => (typeof r === 'string' ? [r] : []));
  if (bad.length) throw new ConfigError(bad.map((b) => `SAML_CLIENT_CERT_PROXIES: ${b}`));
  return { clientCertificate: { header: header.toLowerCase(), proxies: ranges as ProxyRange[] } };
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
