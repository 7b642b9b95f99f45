import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min, validateSync } from 'class-validator';
import { ConfigError } from './app-config.js';
import { parseWalletClients, type WalletClient } from './wallet-clients.js';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value);
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : value === true || value === 'true' || value === '1'
      ? true
      : value === 'false' || value === '0'
        ? false
        : value;
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * The OpenID4VCI credential issuer (`${BASE_URL}/vci`): its signing key and certificate chain, credential and
 * status list lifetimes. customer-test generates a test root and rotating signer certificates (sealed in the
 * database); production reads the operator's key and chain from files at start.
 */
export class CredentialIssuerEnvironmentVariables {
  /** Unset: on in customer-test, and in production when the issuer's key and chain are configured. */
  @Transform(toBool)
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  VCI_ENABLED?: boolean;

  /** PEM private key (PKCS#8, P-256) of the issuer's signing certificate. */
  @Transform(emptyToUndefined)
  @IsOptional()
  VCI_ISSUER_KEY_FILE?: string;

  /** PEM certificates, the signer's first, then its intermediates (a trailing self-signed root is trusted, not sent). */
  @Transform(emptyToUndefined)
  @IsOptional()
  VCI_ISSUER_CERTIFICATE_CHAIN_FILE?: string;

  /** Comma-separated files or folders: the roots verifiers trust for this issuer (default: the chain file's last certificate). */
  @Transform(emptyToUndefined)
  @IsOptional()
  VCI_ISSUER_ANCHORS?: string;

  /** Comma-separated files or folders: the certificates of replaced signers, published for the credentials they signed. */
  @Transform(emptyToUndefined)
  @IsOptional()
  VCI_ISSUER_PREVIOUS_CERTIFICATES?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  VCI_CREDENTIAL_MAX_LIFETIME_DAYS = 365;

  /** The status list token's `ttl` and the Cache-Control max-age of its answer. */
  @Transform(toInt)
  @IsInt()
  @Min(30)
  @Max(86_400)
  VCI_STATUS_LIST_TTL_SECONDS = 300;

  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(86_400)
  VCI_OFFER_TTL_SECONDS = 600;

  /** OpenID4VCI 1.0 §12.2.4 batch_credential_issuance.batch_size. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  VCI_BATCH_SIZE = 10;

  /** How often an instance checks whether another one revoked credentials (and rebuilds the affected lists). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(300)
  VCI_STATUS_LIST_REFRESH_SECONDS = 5;

  /** How often an instance reloads the issuer's signer (a rotation on another instance is picked up within it). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  VCI_ISSUER_KEY_RELOAD_SECONDS = 60;

  /** JSON: the wallets allowed the authorization code flow (src/config/wallet-clients.ts). */
  @Transform(emptyToUndefined)
  @IsOptional()
  VCI_WALLET_CLIENTS?: string;
}

export const CREDENTIAL_ISSUER_VARIABLE_NAMES = [
  'VCI_ENABLED',
  'VCI_ISSUER_KEY_FILE',
  'VCI_ISSUER_CERTIFICATE_CHAIN_FILE',
  'VCI_ISSUER_ANCHORS',
  'VCI_ISSUER_PREVIOUS_CERTIFICATES',
  'VCI_CREDENTIAL_MAX_LIFETIME_DAYS',
  'VCI_STATUS_LIST_TTL_SECONDS',
  'VCI_OFFER_TTL_SECONDS',
  'VCI_BATCH_SIZE',
  'VCI_STATUS_LIST_REFRESH_SECONDS',
  'VCI_ISSUER_KEY_RELOAD_SECONDS',
  'VCI_WALLET_CLIENTS',
] as const satisfies readonly (keyof CredentialIssuerEnvironmentVariables)[];

export interface CredentialIssuerConfig {
  enabled: boolean;
  /** Unset: customer-test signs with its generated test PKI; production with the issuer enabled always has it. */
  signer?: { keyFile: string; chainFile: string };
  /** Files or folders of trusted roots (VCI_ISSUER_ANCHORS); empty: the chain file's last certificate. */
  anchorPaths: string[];
  /** Files or folders of replaced signers' certificates (VCI_ISSUER_PREVIOUS_CERTIFICATES), published while valid. */
  previousCertificatePaths: string[];
  credentialMaxLifetimeDays: number;
  statusListTtlSeconds: number;
  offerTtlSeconds: number;
  batchSize: number;
  statusListRefreshSeconds: number;
  keyReloadSeconds: number;
  /** Wallets registered for the authorization code flow (none: the flow is not offered). */
  walletClients: WalletClient[];
}

const paths = (value?: string) =>
  value
    ? value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
        .map((p) => resolve(p))
    : [];

export function loadCredentialIssuerConfig(env: Record<string, string | undefined>, isProduction: boolean): CredentialIssuerConfig {
  const picked = Object.fromEntries(CREDENTIAL_ISSUER_VARIABLE_NAMES.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
  const vars = plainToInstance(CredentialIssuerEnvironmentVariables, picked);
  const problems = validateSync(vars).map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
  const { VCI_ISSUER_KEY_FILE: keyFile, VCI_ISSUER_CERTIFICATE_CHAIN_FILE: chainFile } = vars;
  if (Boolean(keyFile) !== Boolean(chainFile))
    problems.push('VCI_ISSUER_KEY_FILE and VCI_ISSUER_CERTIFICATE_CHAIN_FILE: set both (the issuer signing key and its certificate chain) or neither');
  // Production never signs credentials with a generated key: the issuer needs the operator's certificate.
  if (isProduction && vars.VCI_ENABLED === true && !keyFile && !chainFile)
    problems.push(
      "VCI_ISSUER_KEY_FILE and VCI_ISSUER_CERTIFICATE_CHAIN_FILE: VCI_ENABLED=true in production needs the credential issuer's key and certificate chain",
    );
  for (const [name, file] of [
    ['VCI_ISSUER_KEY_FILE', keyFile],
    ['VCI_ISSUER_CERTIFICATE_CHAIN_FILE', chainFile],
  ] as const)
    if (file && !existsSync(resolve(file))) problems.push(`${name}: no file at ${resolve(file)}`);
  const anchorPaths = paths(vars.VCI_ISSUER_ANCHORS);
  for (const path of anchorPaths) if (!existsSync(path)) problems.push(`VCI_ISSUER_ANCHORS: no file or folder at ${path}`);
  const previousCertificatePaths = paths(vars.VCI_ISSUER_PREVIOUS_CERTIFICATES);
  for (const path of previousCertificatePaths) if (!existsSync(path)) problems.push(`VCI_ISSUER_PREVIOUS_CERTIFICATES: no file or folder at ${path}`);
  const wallets = parseWalletClients(vars.VCI_WALLET_CLIENTS, isProduction);
  problems.push(...wallets.problems);
  if (problems.length) throw new ConfigError(problems);
  return {
    enabled: vars.VCI_ENABLED ?? (!isProduction || Boolean(keyFile && chainFile)),
    signer: keyFile && chainFile ? { keyFile: resolve(keyFile), chainFile: resolve(chainFile) } : undefined,
    anchorPaths,
    previousCertificatePaths,
    credentialMaxLifetimeDays: vars.VCI_CREDENTIAL_MAX_LIFETIME_DAYS,
    statusListTtlSeconds: vars.VCI_STATUS_LIST_TTL_SECONDS,
    offerTtlSeconds: vars.VCI_OFFER_TTL_SECONDS,
    batchSize: vars.VCI_BATCH_SIZE,
    statusListRefreshSeconds: vars.VCI_STATUS_LIST_REFRESH_SECONDS,
    keyReloadSeconds: vars.VCI_ISSUER_KEY_RELOAD_SECONDS,
    walletClients: wallets.clients,
  };
}
