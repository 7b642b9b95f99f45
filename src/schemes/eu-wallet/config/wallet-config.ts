import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min, validateSync } from 'class-validator';
import { ConfigError } from '../../../config/app-config.js';
import type { AppConfig } from '../../../config/load-config.js';
import { readWalletCrls } from './wallet-crls.js';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value);
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : value === 'true' ? true : value === 'false' ? false : value;

/**
 * The EU Digital Identity Wallet scheme (OpenID4VP 1.0, docs/eu-wallet.md). The request signer is the service's own
 * certificate (HAIP 1.0: an access certificate issued to the relying party, not self-signed); the anchors are trust
 * lists as files or folders of certificates (PEM or DER), like the document verifier's CSCA store. customer-test
 * generates a test request signer, a test PID provider and a test IACA and trusts them; production never does.
 */
export class WalletEnvironmentVariables {
  /** PEM private key (PKCS#8, P-256) of the certificate that signs request objects. */
  @Transform(emptyToUndefined)
  @IsOptional()
  WALLET_REQUEST_KEY_FILE?: string;

  /** PEM certificates, the request signer's first, then its issuers (x5c of every request object). */
  @Transform(emptyToUndefined)
  @IsOptional()
  WALLET_REQUEST_CERTIFICATE_CHAIN_FILE?: string;

  /** OpenID4VP 1.0 client identifier prefix: the hash of the certificate (HAIP's), or the DNS name in its SAN. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['x509_hash', 'x509_san_dns'])
  WALLET_CLIENT_ID_PREFIX: 'x509_hash' | 'x509_san_dns' = 'x509_hash';

  /** Comma-separated files or folders: roots of the PID providers trusted at eIDAS level substantial. */
  @Transform(emptyToUndefined)
  @IsOptional()
  WALLET_PID_ANCHORS?: string;

  /** Comma-separated files or folders: roots of the PID providers trusted at eIDAS level high (acr high). */
  @Transform(emptyToUndefined)
  @IsOptional()
  WALLET_PID_ANCHORS_HIGH?: string;

  /** Comma-separated files or folders: IACA roots of mobile driving licence issuers (ISO 18013-5 Annex B). */
  @Transform(emptyToUndefined)
  @IsOptional()
  WALLET_MDL_ANCHORS?: string;

  /** Comma-separated files or folders of CRLs (PEM or DER) of the issuers' CAs, beside those their certificates name. */
  @Transform(emptyToUndefined)
  @IsOptional()
  WALLET_TRUST_CRLS?: string;

  /** How long a wallet request (its QR code, its nonce and encryption key) stays usable. */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(1800)
  WALLET_REQUEST_TTL_SECONDS = 600;

  /** The longest a status list is cached, whatever its `ttl` says. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400)
  WALLET_STATUS_LIST_MAX_CACHE_SECONDS = 3600;

  /** Accept the service's own reusable identity credential (issued after a passed document verification), when it issues one. */
  @Transform(toBool)
  @IsBoolean({ message: 'must be true or false' })
  WALLET_TRUST_OWN_CREDENTIALS = true;
}

export const WALLET_VARIABLE_NAMES = [
  'WALLET_REQUEST_KEY_FILE',
  'WALLET_REQUEST_CERTIFICATE_CHAIN_FILE',
  'WALLET_CLIENT_ID_PREFIX',
  'WALLET_PID_ANCHORS',
  'WALLET_PID_ANCHORS_HIGH',
  'WALLET_MDL_ANCHORS',
  'WALLET_TRUST_CRLS',
  'WALLET_REQUEST_TTL_SECONDS',
  'WALLET_STATUS_LIST_MAX_CACHE_SECONDS',
  'WALLET_TRUST_OWN_CREDENTIALS',
] as const satisfies readonly (keyof WalletEnvironmentVariables)[];

export interface WalletConfig {
  /** Whether the scheme is offered: always in customer-test; in production with a request signer and an anchor. */
  offered: boolean;
  /** Unset: customer-test uses its generated signer; production has no wallet scheme. */
  requestSigner?: { keyFile: string; chainFile: string };
  clientIdPrefix: 'x509_hash' | 'x509_san_dns';
  anchors: { pid: string[]; pidHigh: string[]; mdl: string[] };
  /** CRL files or folders (WALLET_TRUST_CRLS), checked at start to hold only CRLs. */
  trustCrls: string[];
  requestTtlSeconds: number;
  statusListMaxCacheSeconds: number;
  /** Whether the scheme asks for and accepts the service's own reusable credential (when a provider offers one). */
  trustOwnCredentials: boolean;
}

const paths = (value?: string) =>
  value
    ? value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
        .map((p) => resolve(p))
    : [];

export function loadWalletConfig(env: Record<string, string | undefined>, isProduction: boolean): WalletConfig {
  const picked = Object.fromEntries(WALLET_VARIABLE_NAMES.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
  const vars = plainToInstance(WalletEnvironmentVariables, picked);
  const problems = validateSync(vars).map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
  const { WALLET_REQUEST_KEY_FILE: keyFile, WALLET_REQUEST_CERTIFICATE_CHAIN_FILE: chainFile } = vars;
  if (Boolean(keyFile) !== Boolean(chainFile))
    problems.push('WALLET_REQUEST_KEY_FILE and WALLET_REQUEST_CERTIFICATE_CHAIN_FILE: set both (the request signing key and its certificate chain) or neither');
  const anchors = { pid: paths(vars.WALLET_PID_ANCHORS), pidHigh: paths(vars.WALLET_PID_ANCHORS_HIGH), mdl: paths(vars.WALLET_MDL_ANCHORS) };
  for (const [name, file] of [
    ['WALLET_REQUEST_KEY_FILE', keyFile],
    ['WALLET_REQUEST_CERTIFICATE_CHAIN_FILE', chainFile],
  ] as const)
    if (file && !existsSync(resolve(file))) problems.push(`${name}: no file at ${resolve(file)}`);
  for (const path of [...anchors.pid, ...anchors.pidHigh, ...anchors.mdl]) if (!existsSync(path)) problems.push(`wallet anchors: no file or folder at ${path}`);
  const trustCrls = paths(vars.WALLET_TRUST_CRLS);
  for (const path of trustCrls) {
    if (!existsSync(path)) problems.push(`WALLET_TRUST_CRLS: no file or folder at ${path}`);
    else {
      try {
        readWalletCrls([path]);
      } catch (e) {
        problems.push((e as Error).message);
      }
    }
  }
  const anyAnchor = anchors.pid.length + anchors.pidHigh.length + anchors.mdl.length > 0;
  // Production offers the wallet only when it can both sign requests and trust someone; half of it is a mistake.
  if (isProduction && Boolean(keyFile) !== anyAnchor)
    problems.push(
      'WALLET_REQUEST_KEY_FILE and WALLET_PID_ANCHORS / WALLET_PID_ANCHORS_HIGH / WALLET_MDL_ANCHORS: production offers the wallet with a request signer and at least one trust anchor, or neither',
    );
  if (problems.length) throw new ConfigError(problems);
  return {
    offered: !isProduction || (Boolean(keyFile) && anyAnchor),
    requestSigner: keyFile && chainFile ? { keyFile: resolve(keyFile), chainFile: resolve(chainFile) } : undefined,
    clientIdPrefix: vars.WALLET_CLIENT_ID_PREFIX,
    anchors,
    trustCrls,
    requestTtlSeconds: vars.WALLET_REQUEST_TTL_SECONDS,
    statusListMaxCacheSeconds: vars.WALLET_STATUS_LIST_MAX_CACHE_SECONDS,
    trustOwnCredentials: vars.WALLET_TRUST_OWN_CREDENTIALS,
  };
}

/** The wallet's section of the configuration (its manifest's `config`, loaded with the rest at start). */
export function walletConfig(config: AppConfig): WalletConfig {
  const section = config.schemes['eu-wallet'] as WalletConfig | undefined;
  if (!section) throw new Error('the EU wallet configuration section was not loaded: load the configuration with loadServiceConfig');
  return section;
}
