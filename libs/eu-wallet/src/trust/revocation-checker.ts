import type { X509Certificate } from 'node:crypto';
import { WalletCheckError } from '../errors.js';
import { distributionPoints, judge, parseCrl, peculiar, type Crl, type DistributionPoints } from './crl.js';

export interface RevocationCheckerOptions {
  /** CRLs the operator configured (WALLET_TRUST_CRLS), parsed; each applies to the certificates of its issuer. */
  crls: readonly Crl[];
  /** Fetches the CRL at a certificate's distribution point. The service passes its address-filtered fetch. */
  fetchCrl?: (url: string) => Promise<Uint8Array>;
  /** A CRL that applies but cannot be used: `refuse` (production) or `warn` and accept (customer-test). */
  whenUnavailable: 'refuse' | 'warn';
  /** Told, in `warn` mode, of each certificate accepted without its revocation status. Issuers' names only, no person's. */
  warn?: (facts: { certificate: string; reasons: string[] }) => void;
  now?: () => Date;
  /** A fetched CRL is fetched again at its nextUpdate, or after this long if sooner; default a day. */
  maxCacheSeconds?: number;
}

/** The check the presentation verifiers call on a verified chain (leaf first, anchor last). */
export interface RevocationCheck {
  checkPath(path: readonly X509Certificate[]): Promise<void>;
}

interface Fetched {
  crl: Crl;
  /** Epoch ms after which it is fetched again (it stays usable until its nextUpdate if that fetch fails). */
  refreshAt: number;
}

/** After a failed refresh of a CRL that is still current, when to try again. */
const RETRY_MS = 60_000;

/** Enough CRLs for every CA a service trusts; past it the oldest entry goes. */
const MAX_CACHED = 1000;

const oneLine = (name: string) => name.replace(/\n/g, ', ');

/**
 * Revocation of the certificates of an issuer's chain by CRLs (RFC 5280 §5, §6.3): each certificate of the path,
 * the anchor included (a self-signed IACA or PID provider root can list itself on its own CRL), against the CRLs of
 * its CA: those configured, and the one at each http(s) CRL Distribution Point the certificate names (ISO/IEC
 * 18013-5 Annex B puts one in every Document Signer certificate), fetched through `fetchCrl` and cached until its
 * nextUpdate (at most `maxCacheSeconds`); concurrent checks share one fetch, failures are not cached.
 *
 * - A certificate any such CRL lists is refused `certificate_revoked`, in every environment.
 * - A certificate no current CRL vouches for while it has a distribution point or a configured CRL of its CA (the
 *   fetch failed, the CRL does not verify, it is past nextUpdate, it is a delta or indirect CRL) has no known status:
 *   `refuse` throws `revocation_unknown`; `warn` reports it and lets it pass.
 * - A certificate without distribution point whose CA has no configured CRL has no revocation source: it passes.
 */
export class RevocationChecker implements RevocationCheck {
  private readonly fetched = new Map<string, Fetched>();
  /**
   * What a certificate says of its revocation (its issuer's name, its distribution points), by fingerprint: parsing
   * with @peculiar/x509 costs about 0.85 ms a certificate, and the same few issuer chains come with every presentation.
   */
  private readonly sources = new Map<string, { issuer: string; points: DistributionPoints }>();
  private readonly inFlight = new Map<string, Promise<Crl>>();
  private readonly now: () => Date;
  private readonly maxCacheMs: number;

  constructor(private readonly options: RevocationCheckerOptions) {
    this.now = options.now ?? (() => new Date());
    this.maxCacheMs = (options.maxCacheSeconds ?? 86_400) * 1000;
  }

  async checkPath(path: readonly X509Certificate[]): Promise<void> {
    for (const [i, certificate] of path.entries()) {
      // The anchor's CA is itself when it is self-issued; an anchor that is not (an intermediate configured as a
      // root) has no CA here to check a CRL's signature with, and is trusted as configured.
      const issuer = path[i + 1] ?? (certificate.checkIssued(certificate) ? certificate : undefined);
      if (issuer) await this.checkOne(certificate, issuer);
    }
  }

  private async checkOne(certificate: X509Certificate, issuerCertificate: X509Certificate): Promise<void> {
    const { issuer: issuerName, points } = this.sourcesOf(certificate);
    const configured = this.options.crls.filter((c) => c.issuer === issuerName);
    if (!points.any && configured.length === 0) return;
    const subject = peculiar(certificate);
    const issuer = peculiar(issuerCertificate);
    const reasons: string[] = [];
    const crls = [...configured];
    for (const url of points.urls) {
      try {
        crls.push(await this.fetch(url));
      } catch (cause) {
        reasons.push(`the CRL at ${url} could not be fetched (${cause instanceof Error ? cause.message : 'error'})`);
      }
    }
    if (points.any && points.urls.length === 0) reasons.push('its CRL distribution points name no http(s) address for a complete CRL');
    const now = this.now();
    let good = false;
    for (const crl of crls) {
      const result = await judge(crl, subject, certificate.ca, issuer, now);
      if (result.verdict === 'revoked')
        throw new WalletCheckError('certificate_revoked', `the certificate ${oneLine(certificate.subject)} is revoked by its CA's CRL`);
      if (result.verdict === 'good') good = true;
      else reasons.push(`a CRL of ${crl.issuer} is not usable: ${result.reason}`);
    }
    if (good) return;
    if (this.options.whenUnavailable === 'refuse') {
      throw new WalletCheckError('revocation_unknown', `the revocation status of ${oneLine(certificate.subject)} is unknown: ${reasons.join('; ')}`);
    }
    this.options.warn?.({ certificate: oneLine(certificate.subject), reasons });
  }

  private sourcesOf(certificate: X509Certificate): { issuer: string; points: DistributionPoints } {
    const key = certificate.fingerprint256;
    let known = this.sources.get(key);
    if (!known) {
      const parsed = peculiar(certificate);
      known = { issuer: parsed.issuer, points: distributionPoints(parsed) };
      this.sources.set(key, known);
      if (this.sources.size > MAX_CACHED) this.sources.delete(this.sources.keys().next().value as string);
    }
    return known;
  }

  /**
   * The CRL at `url`: cached while fresh, else fetched (one fetch for concurrent checks). A failed refresh falls back
   * to the cached copy while it is before its nextUpdate; with none, the failure is not cached (the next check tries).
   */
  private async fetch(url: string): Promise<Crl> {
    const cached = this.fetched.get(url);
    const now = this.now().getTime();
    if (cached && cached.refreshAt > now) return cached.crl;
    let pending = this.inFlight.get(url);
    if (!pending) {
      pending = this.load(url).finally(() => this.inFlight.delete(url));
      this.inFlight.set(url, pending);
    }
    try {
      return await pending;
    } catch (error) {
      if (!cached?.crl.nextUpdate || cached.crl.nextUpdate.getTime() <= now) throw error;
      // Still current: used, and the next try waits a minute, so an outage does not cost every check a time-out.
      cached.refreshAt = Math.min(now + RETRY_MS, cached.crl.nextUpdate.getTime());
      return cached.crl;
    }
  }

  private async load(url: string): Promise<Crl> {
    if (!this.options.fetchCrl) throw new Error('CRLs are not fetched here');
    const bytes = await this.options.fetchCrl(url);
    let crl: Crl;
    try {
      crl = parseCrl(bytes);
    } catch {
      throw new Error('the answer is not a CRL');
    }
    const now = this.now().getTime();
    // Cached until its nextUpdate, or maxCacheSeconds if sooner; one without a future nextUpdate is not kept.
    if (crl.nextUpdate && crl.nextUpdate.getTime() > now) {
      this.fetched.delete(url);
      this.fetched.set(url, { crl, refreshAt: Math.min(crl.nextUpdate.getTime(), now + this.maxCacheMs) });
      if (this.fetched.size > MAX_CACHED) this.fetched.delete(this.fetched.keys().next().value as string);
    }
    return crl;
  }
}
