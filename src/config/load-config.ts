import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppEnv, ConfigError, DEFAULT_OPERATOR_NAME, EnvironmentVariables, readEnvironment } from './app-config.js';
import { loadCredentialIssuerConfig, type CredentialIssuerConfig } from './credential-issuer-config.js';
import { loadIdentityAssuranceConfig, type IdentityAssuranceConfig } from './identity-assurance-config.js';
import { loadOpsConfig, type OpsConfig } from './ops-config.js';
import { type Branding, loadBrandingConfig } from './branding-config.js';
import { loadClientCertificateConfig, type ClientCertificateConfig } from './client-certificate-config.js';

export type DatabaseConfig = { kind: 'postgres'; url: string } | { kind: 'embedded'; dir: string };

export interface AppConfig {
  env: AppEnv;
  isProduction: boolean;
  port: number;
  baseUrl: string;
  dataDir: string;
  database: DatabaseConfig;
  encryption: { currentKeyId: string; keys: ReadonlyMap<string, Buffer> };
  adminApiToken?: string;
  cookieKeys: string[];
  /** HMAC key of document subjects (stable `sub` per document); never the cookie keys. */
  subjectSecret: string;
  /** HMAC key of pairwise subjects (sub per merchant sector). */
  pairwiseSecret: string;
  trustProxy: boolean;
  /** The operator's privacy notice, linked from every broker page (PRIVACY_NOTICE_URL); none: no link. */
  privacyNoticeUrl?: string;
  /** The operator's name, logo, accent colour and contact on every page (OPERATOR_*). */
  branding: Branding;
  logLevel: string;
  redisUrl?: string;
  /** Prefix of every Redis key (REDIS_KEY_PREFIX). */
  redisKeyPrefix: string;
  oidc: {
    refreshTokenTtlSeconds: number;
    /** How long a completed login (the claims tokens are answered from) is kept: as long as a refresh token may live. */
    loginRetentionSeconds: number;
    keyRotationOverlapSeconds: number;
    /** Signing key reload interval of every instance; a rotated key is published 2 intervals before it signs. */
    keyReloadSeconds: number;
    authorizationCodeTtlSeconds: number;
    /** DPOP_NONCE_SECRET: DPoP proofs must then carry a server nonce (RFC 9449 §8); none: no nonces. */
    dpopNonceSecret?: string;
  };
  ciba: {
    /** The interval of spec 2.6, always answered; a faster poll gets slow_down and the interval grows. */
    pollIntervalSeconds: number;
    /** Upper bound of requested_expiry, and the expiry when none is requested. */
    maxExpirySeconds: number;
    /** The longest the callback outbox sleeps: it is woken by NOTIFY and by its rows' due times, this is the safety net. */
    outboxSweepSeconds: number;
  };
  authFiles: {
    /** The operator, named as the issuer on every evidence report (OPERATOR_NAME). */
    operatorName: string;
    /**
     * The PAdES signer's key and chain (PEM files). Absent: customer-test signs with a test signer it generates
     * once and keeps sealed in the database; production returns unsigned PDFs with content-reason (spec 4.8).
     */
    pades?: { keyFile: string; chainFile: string };
  };
  /** Secrets the environment did not set that this start generated (and kept in DATA_DIR; customer-test only). */
  generatedSecrets: string[];
  /** Secrets the environment did not set that an earlier start generated, read from DATA_DIR (customer-test only). */
  storedSecrets: string[];
  /** Metrics, rate limits and shutdown (src/ops). */
  ops: OpsConfig;
  /**
   * The client certificate a TLS-terminating proxy verified and passes on in a header (CLIENT_CERT_HEADER, believed
   * only from CLIENT_CERT_PROXIES): the engine's mutual TLS and SAML artifact resolution read it. Unset: none.
   */
  clientCertificate?: ClientCertificateConfig;
  /** Each scheme's own section by its name (its manifest's `config`; the scheme reads it through its own accessor). */
  schemes: Readonly<Record<string, unknown>>;
  /** The OpenID4VCI credential issuer (src/credential-issuer): its signer, lifetimes and status lists. */
  credentialIssuer: CredentialIssuerConfig;
  /** The trust framework each scheme's verified_claims state (IDA_TRUST_FRAMEWORKS), by scheme id. */
  identityAssurance: IdentityAssuranceConfig;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

interface DevelopmentSecrets {
  dataEncryptionKey: string;
  cookieKeys: string[];
  subjectSecret: string;
  pairwiseSecret: string;
}

/**
 * customer-test may run without secrets in the environment: they are generated once and kept beside
 * the embedded database so that encrypted rows stay readable across restarts. `created`: those made by this call.
 */
function loadOrCreateDevelopmentSecrets(dataDir: string): { secrets: DevelopmentSecrets; created: Set<keyof DevelopmentSecrets> } {
  const file = join(dataDir, 'development-secrets.json');
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<DevelopmentSecrets>) : {};
  const secrets: DevelopmentSecrets = {
    dataEncryptionKey: stored.dataEncryptionKey ?? randomBytes(32).toString('base64'),
    cookieKeys: stored.cookieKeys ?? [randomBytes(32).toString('base64url')],
    // Files written before these secrets existed get them added (and kept) on the next start.
    subjectSecret: stored.subjectSecret ?? randomBytes(32).toString('base64url'),
    pairwiseSecret: stored.pairwiseSecret ?? randomBytes(32).toString('base64url'),
  };
  const created = new Set((Object.keys(secrets) as (keyof DevelopmentSecrets)[]).filter((k) => !(k in stored)));
  if (created.size) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  }
  return { secrets, created };
}

/** Each development secret with the variable that would set it. */
const DEVELOPMENT_SECRET_VARIABLES: [keyof DevelopmentSecrets, 'DATA_ENCRYPTION_KEY' | 'COOKIE_KEYS' | 'SUBJECT_SECRET' | 'PAIRWISE_SECRET'][] = [
  ['dataEncryptionKey', 'DATA_ENCRYPTION_KEY'],
  ['cookieKeys', 'COOKIE_KEYS'],
  ['subjectSecret', 'SUBJECT_SECRET'],
  ['pairwiseSecret', 'PAIRWISE_SECRET'],
];

function productionProblems(vars: EnvironmentVariables): string[] {
  const problems: string[] = [];
  if (!vars.BASE_URL?.startsWith('https://')) problems.push('BASE_URL: production needs an https base URL');
  if (!vars.DATA_ENCRYPTION_KEY) problems.push('DATA_ENCRYPTION_KEY: production needs an explicit key (no generated keys)');
  if (!vars.COOKIE_KEYS) problems.push('COOKIE_KEYS: production needs explicit cookie signing keys (no generated keys)');
  if (!vars.SUBJECT_SECRET) problems.push('SUBJECT_SECRET: production needs an explicit document subject key (no generated keys)');
  if (!vars.PAIRWISE_SECRET) problems.push('PAIRWISE_SECRET: production needs an explicit pairwise subject key (no generated keys)');
  if (!vars.DATABASE_URL && !vars.ALLOW_EMBEDDED_DATABASE)
    problems.push('DATABASE_URL: production needs PostgreSQL (or ALLOW_EMBEDDED_DATABASE=true as an explicit opt-in)');
  return problems;
}

function parseKeys(vars: EnvironmentVariables, generatedKey?: string): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  for (const pair of vars.DATA_ENCRYPTION_OLD_KEYS?.split(',') ?? []) {
    const [id, value] = pair.split(':');
    keys.set(id, Buffer.from(value, 'base64'));
  }
  keys.set(vars.DATA_ENCRYPTION_KEY_ID, Buffer.from((vars.DATA_ENCRYPTION_KEY ?? generatedKey)!, 'base64'));
  return keys;
}

/**
 * A scheme's part of the configuration: it reads its own variables and throws a ConfigError naming every problem,
 * which loadConfig reports in its one list with the core's. The schemes' manifests declare them
 * (src/bootstrap/scheme-manifests.ts, loadServiceConfig).
 */
export interface ConfigSection {
  name: string;
  load(env: Record<string, string | undefined>, isProduction: boolean): unknown;
}

/** What `read` answers; the problems of its ConfigError, if it throws one, go into `problems` (any other error passes). */
function reported<T>(problems: string[], read: () => T): T | undefined {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    problems.push(...e.problems);
    return undefined;
  }
}

/**
 * Validates the environment once and derives the typed configuration; fails fast with every problem named, in one
 * list: the core's variables, operations, branding and client certificates, what production lacks, then each section's. `sections`:
 * the schemes' parts (loadServiceConfig passes every listed scheme's).
 */
/* eslint-disable-next-line complexity -- more than half the count is the `??` defaults and `?:` choices of the
   returned configuration, one per independent setting; the rest are the start-up checks, in the order their
   messages must come */
export function loadConfig(env: Record<string, string | undefined> = process.env, sections: readonly ConfigSection[] = []): AppConfig {
  const problems: string[] = [];
  const vars = readEnvironment(env, problems);
  const ops = reported(problems, () => loadOpsConfig(env));
  const branding = reported(problems, () => loadBrandingConfig(env));
  const clientCertificate = reported(problems, () => loadClientCertificateConfig(env));
  const identityAssurance = reported(problems, () => loadIdentityAssuranceConfig(env));
  const isProduction = vars.APP_ENV === 'production';
  if (isProduction) problems.push(...productionProblems(vars));
  const schemes = Object.fromEntries(sections.map((section) => [section.name, reported(problems, () => section.load(env, isProduction))]));
  if (problems.length) throw new ConfigError(problems);
  // After the production basics, so that a bare production environment is told about its secrets first.
  const credentialIssuer = loadCredentialIssuerConfig(env, isProduction);
  if (Boolean(vars.PADES_SIGNING_KEY_FILE) !== Boolean(vars.PADES_CERTIFICATE_CHAIN_FILE))
    throw new ConfigError(['PADES_SIGNING_KEY_FILE and PADES_CERTIFICATE_CHAIN_FILE: set both (the PAdES key and its certificate chain) or neither']);
  for (const name of ['PADES_SIGNING_KEY_FILE', 'PADES_CERTIFICATE_CHAIN_FILE'] as const)
    if (vars[name] && !existsSync(resolve(vars[name]))) throw new ConfigError([`${name}: no file at ${resolve(vars[name])}`]);
  const dataDir = resolve(vars.DATA_DIR);
  const generatedSecrets: string[] = [];
  const storedSecrets: string[] = [];
  let dev: DevelopmentSecrets | undefined;
  const unset = DEVELOPMENT_SECRET_VARIABLES.filter(([, variable]) => !vars[variable]);
  if (unset.length) {
    const { secrets, created } = loadOrCreateDevelopmentSecrets(dataDir);
    dev = secrets;
    for (const [secret, variable] of unset) (created.has(secret) ? generatedSecrets : storedSecrets).push(variable);
  }
  return {
    env: vars.APP_ENV,
    isProduction,
    port: vars.PORT,
    baseUrl: (vars.BASE_URL ?? `http://localhost:${vars.PORT}`).replace(/\/$/, ''),
    privacyNoticeUrl: vars.PRIVACY_NOTICE_URL,
    branding: branding!,
    dataDir,
    database: vars.DATABASE_URL ? { kind: 'postgres', url: vars.DATABASE_URL } : { kind: 'embedded', dir: join(dataDir, 'pglite') },
    encryption: { currentKeyId: vars.DATA_ENCRYPTION_KEY_ID, keys: parseKeys(vars, dev?.dataEncryptionKey) },
    adminApiToken: vars.ADMIN_API_TOKEN,
    cookieKeys: vars.COOKIE_KEYS?.split(',') ?? dev!.cookieKeys,
    subjectSecret: vars.SUBJECT_SECRET ?? dev!.subjectSecret,
    pairwiseSecret: vars.PAIRWISE_SECRET ?? dev!.pairwiseSecret,
    trustProxy: vars.TRUST_PROXY,
    logLevel: vars.LOG_LEVEL,
    redisUrl: vars.REDIS_URL,
    redisKeyPrefix: vars.REDIS_KEY_PREFIX,
    oidc: {
      refreshTokenTtlSeconds: vars.REFRESH_TOKEN_TTL_SECONDS,
      loginRetentionSeconds: vars.REFRESH_TOKEN_TTL_SECONDS + 3600,
      keyRotationOverlapSeconds: vars.KEY_ROTATION_OVERLAP_SECONDS,
      keyReloadSeconds: vars.KEY_RELOAD_SECONDS,
      authorizationCodeTtlSeconds: vars.AUTHORIZATION_CODE_TTL_SECONDS,
      dpopNonceSecret: vars.DPOP_NONCE_SECRET,
    },
    ciba: {
      pollIntervalSeconds: vars.CIBA_POLL_INTERVAL_SECONDS,
      maxExpirySeconds: vars.CIBA_MAX_EXPIRY_SECONDS,
      outboxSweepSeconds: vars.CIBA_OUTBOX_SWEEP_SECONDS,
    },
    authFiles: {
      operatorName: (vars.OPERATOR_NAME ?? DEFAULT_OPERATOR_NAME).trim(),
      pades:
        vars.PADES_SIGNING_KEY_FILE && vars.PADES_CERTIFICATE_CHAIN_FILE
          ? { keyFile: resolve(vars.PADES_SIGNING_KEY_FILE), chainFile: resolve(vars.PADES_CERTIFICATE_CHAIN_FILE) }
          : undefined,
    },
    generatedSecrets,
    storedSecrets,
    ops: ops!,
    clientCertificate,
    schemes,
    credentialIssuer,
    identityAssurance: identityAssurance!,
  };
}
