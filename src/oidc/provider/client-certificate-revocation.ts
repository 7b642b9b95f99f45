import type { X509Certificate } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { judge, peculiar } from '@identity-broker/eu-wallet';
import type Provider from 'oidc-provider';
import { ForwardedClientCertificates } from '../../common/http/forwarded-client-certificate.js';
import { logger } from '../../common/logging/logger.js';
import { ConfigError } from '../../config/app-config.js';
import type { ClientCertificateConfig } from '../../config/client-certificate-config.js';
import { assignCrlsToCas, readCrlFile, type CaRevocationLists } from '../../config/client-certificate-crls.js';

/** How often the file is looked at for a new version (the operator's cron replaces it). */
export const CRL_FILE_CHECK_MS = 60_000;
/** An undecided verdict is worked out (and logged) again after this; a good one lasts until its CRL's nextUpdate. */
const UNDECIDED_KEPT_MS = 60_000;
/** Verdicts kept per certificate; past this the cache starts afresh (a bound on memory, not a working set). */
const MAX_KEPT_VERDICTS = 10_000;

/** undefined: not issued by a CA of CLIENT_CERT_CA_FILE (no tls_client_auth certificate, refused by the engine anyway). */
export type RevocationVerdict = 'good' | 'revoked' | 'undecided' | undefined;

interface KeptVerdict {
  verdict: RevocationVerdict;
  until: number;
}

/** The file's identity: a new mtime (or a file moved in place of it) is a new version. */
const versionOf = (s: { mtimeMs: number; size: number; ino: number }) => `${s.mtimeMs}:${s.size}:${s.ino}`;

/**
 * Revocation of tls_client_auth certificates (RFC 8705 §2.1) by the CRLs of CLIENT_CERT_CRL_FILE (RFC 5280 §6.3.3, judged
 * by the wallet trust's CRL reader). A listed serial is refused; a certificate no CRL can vouch for (past its nextUpdate,
 * not covering it) is refused too, fail closed, with a warning naming its issuer and serial only. No OCSP and no
 * fetch: the token path never waits for a CA's server; the operator's cron keeps the file fresh and it is read again
 * when it changes (a new version that fails the checks is logged and the CRLs in force are kept).
 *
 * The engine asks `certificateAuthorized` synchronously, and judging is asynchronous: the verdict is worked out first,
 * by a middleware in front of the engine (applyCertificateRevocation), and kept for the request.
 */
export class ClientCertificateRevocation {
  private verdicts = new Map<string, KeptVerdict>();
  private readonly byRequest = new WeakMap<IncomingMessage, { fingerprint: string; verdict: RevocationVerdict }>();
  private checking?: Promise<void>;

  private constructor(
    readonly certificates: ForwardedClientCertificates,
    private readonly file: string,
    private readonly cas: X509Certificate[],
    private lists: CaRevocationLists[],
    private version: string,
  ) {}

  /**
   * The first load, before the engine serves: a file that fails a check throws a ConfigError and the start stops.
   * Undefined without CLIENT_CERT_CRL_FILE (no revocation checked).
   */
  static async of(setting: ClientCertificateConfig | undefined): Promise<ClientCertificateRevocation | undefined> {
    if (!setting?.crlFile) return undefined;
    const { version, lists } = await readVersion(setting.crlFile, setting.trustedIssuers).catch((err: unknown) => {
      if (err instanceof ConfigError) throw err;
      throw new ConfigError([`CLIENT_CERT_CRL_FILE: no readable file at ${setting.crlFile}`]);
    });
    warnIfStale(lists);
    return new ClientCertificateRevocation(
      new ForwardedClientCertificates(setting.header, setting.proxies),
      setting.crlFile,
      setting.trustedIssuers,
      lists,
      version,
    );
  }

  /** Reads the file again if it changed since the last look; never throws (a failure is logged, the CRLs in force stay). */
  reloadIfChanged(): Promise<void> {
    this.checking ??= this.checkFile().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async checkFile(): Promise<void> {
    let version: string;
    try {
      version = versionOf(await stat(this.file));
    } catch (err) {
      if (this.version !== 'unreadable') logger.error({ err, file: this.file }, 'CLIENT_CERT_CRL_FILE cannot be read; the CRLs in force are kept');
      this.version = 'unreadable';
      return;
    }
    if (version === this.version) return;
    // Looked at once per version: a broken file is logged once, not every minute.
    this.version = version;
    try {
      const lists = await assignCrlsToCas(this.file, readCrlFile(this.file), this.cas);
      this.lists = lists;
      this.verdicts = new Map();
      logger.info(
        { file: this.file, crls: lists.map((l) => ({ issuer: l.issuer.subject, nextUpdate: l.crls.map((c) => c.nextUpdate) })) },
        'CLIENT_CERT_CRL_FILE read again',
      );
      warnIfStale(lists);
    } catch (err) {
      const problems = err instanceof ConfigError ? err.problems : [String(err)];
      logger.error({ file: this.file, problems }, 'CLIENT_CERT_CRL_FILE changed and fails its checks; the CRLs in force are kept');
    }
  }

  /**
   * What the CRLs say of `certificate`: revoked if its CA's CRL lists it, good if a CRL of its CA covers it and is current,
   * undecided otherwise (and logged). Kept per certificate until the file changes (good: until the CRL's nextUpdate).
   */
  async verdictOf(certificate: X509Certificate, now = new Date()): Promise<RevocationVerdict> {
    const [lists, verdicts] = [this.lists, this.verdicts];
    const kept = verdicts.get(certificate.fingerprint256);
    if (kept && kept.until > now.getTime()) return kept.verdict;
    const entry = lists.find((l) => certificate.checkIssued(l.ca) && certificate.verify(l.ca.publicKey));
    if (!entry) return undefined;
    const subject = peculiar(certificate);
    const judged = await Promise.all(entry.crls.map(async (crl) => ({ crl, said: await judge(crl, subject, certificate.ca, entry.issuer, now) })));
    const named = { issuer: entry.issuer.subject, serial: certificate.serialNumber };
    let decided: KeptVerdict;
    if (judged.some((j) => j.said.verdict === 'revoked')) {
      decided = { verdict: 'revoked', until: Infinity };
      logger.info(named, 'a revoked tls_client_auth certificate was refused (CLIENT_CERT_CRL_FILE)');
    } else if (judged.some((j) => j.said.verdict === 'good')) {
      const until = Math.min(...judged.map((j) => (j.said.verdict === 'good' ? (j.crl.nextUpdate?.getTime() ?? 0) : Infinity)));
      decided = { verdict: 'good', until };
    } else {
      decided = { verdict: 'undecided', until: now.getTime() + UNDECIDED_KEPT_MS };
      const reasons = judged.map((j) => (j.said.verdict === 'unusable' ? j.said.reason : j.said.verdict));
      logger.warn({ ...named, reasons }, 'no CRL of CLIENT_CERT_CRL_FILE can tell whether this tls_client_auth certificate is revoked; it is refused');
    }
    if (verdicts.size >= MAX_KEPT_VERDICTS) verdicts.clear();
    verdicts.set(certificate.fingerprint256, decided);
    return decided.verdict;
  }

  /** Works out and keeps the verdict of the request's certificate (the middleware, before the engine authenticates). */
  async judgeRequest(req: IncomingMessage, certificate: X509Certificate): Promise<void> {
    if (this.byRequest.has(req)) return;
    const verdict = await this.verdictOf(certificate).catch((err: unknown): RevocationVerdict => {
      logger.error({ err }, 'tls_client_auth revocation check failed; the certificate is refused');
      return 'undecided';
    });
    this.byRequest.set(req, { fingerprint: certificate.fingerprint256, verdict });
  }

  /** certificateAuthorized's part: only a "good" verdict worked out for this request's own certificate lets it through. */
  isCleared(req: IncomingMessage, certificate: X509Certificate): boolean {
    const kept = this.byRequest.get(req);
    return kept?.verdict === 'good' && kept.fingerprint === certificate.fingerprint256;
  }
}

async function readVersion(file: string, cas: X509Certificate[]): Promise<{ version: string; lists: CaRevocationLists[] }> {
  // The version before the read: a change while reading is seen at the next look.
  const version = versionOf(await stat(file));
  return { version, lists: await assignCrlsToCas(file, readCrlFile(file), cas) };
}

function warnIfStale(lists: CaRevocationLists[], now = Date.now()): void {
  for (const { issuer, crls } of lists)
    if (crls.every((c) => !c.nextUpdate || c.nextUpdate.getTime() <= now))
      logger.warn(
        { issuer: issuer.subject },
        "CLIENT_CERT_CRL_FILE: this CA's CRL is past its nextUpdate; its tls_client_auth certificates are refused until a new one",
      );
}

/**
 * The middleware in front of the engine: for a POST (client authentication happens only there: token, PAR,
 * revocation, CIBA) carrying a forwarded certificate, the verdict is worked out before the engine asks.
 */
export function applyCertificateRevocation(provider: Provider, revocation: ClientCertificateRevocation | undefined): void {
  if (!revocation) return;
  provider.use(async (ctx, next) => {
    const certificate = ctx.method === 'POST' ? revocation.certificates.certificateOf(ctx.req, 'oidc mutual tls') : undefined;
    if (certificate) await revocation.judgeRequest(ctx.req, certificate);
    await next();
  });
}
