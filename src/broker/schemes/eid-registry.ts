import { logger } from '../../common/logging/logger.js';
import { statesVerification, type VerificationOffer } from '../spi/identity-assurance/identity-verification.js';
import type { AppConfig } from '../../config/load-config.js';
import { ACR_REQUEST_HIGH, ACR_SCHEME_PREFIX } from '../spi/acr.js';
import type { EidProvider, EidSchemeSource, SchemeCatalog } from '../spi/eid-provider.js';
import { supportsAcr } from '../spi/eid-provider.js';

/**
 * The eID schemes enabled in this environment: the built-in ones given at start (fails at start if a
 * test-only scheme is given to production) and those of the sources (schemes that are data, e.g. upstream
 * OpenID providers configured through the admin API). Nest builds it from the providers marked @EidScheme()
 * and @EidSchemeSourceProvider() (broker.module.ts); it imports no scheme.
 */
export class EidRegistry implements SchemeCatalog {
  private builtIn = new Map<string, EidProvider>();
  private readonly sources: EidSchemeSource[] = [];
  private dynamic = new Map<string, EidProvider>();

  constructor(
    providers: EidProvider[],
    private readonly config: AppConfig,
  ) {
    this.addBuiltIn(providers);
  }

  /** Built-in schemes (code); a test-only one in production fails the start. */
  addBuiltIn(providers: EidProvider[]): void {
    const refused = providers.filter((p) => p.testOnly && this.config.isProduction);
    if (refused.length) throw new Error(`test-only eID schemes cannot run in production: ${refused.map((p) => p.id).join(', ')}`);
    this.builtIn = new Map([...this.builtIn, ...providers.map((p) => [p.id, p] as const)]);
  }

  /** A source of schemes that are data, asked at each refresh. */
  addSource(source: EidSchemeSource): void {
    this.sources.push(source);
  }

  /**
   * Asks the sources again. A scheme may never shadow a built-in one, and a test-only scheme is left out
   * in production (the admin API refuses to make one there; this holds even for a row written by hand).
   */
  async refresh(): Promise<void> {
    const next = new Map<string, EidProvider>();
    for (const source of this.sources) {
      for (const p of await source.schemes()) {
        if (this.builtIn.has(p.id) || next.has(p.id)) continue;
        if (p.testOnly && this.config.isProduction) {
          logger.warn({ scheme: p.id }, 'test-only eID scheme left out in production');
          continue;
        }
        next.set(p.id, p);
      }
    }
    this.dynamic = next;
  }

  /** What the schemes able to state a verification can state (verified_claims), for the provider metadata. */
  verificationOffers(): { builtIn: { id: string; offer: VerificationOffer }[]; sources: VerificationOffer[] } {
    return {
      builtIn: [...this.builtIn.values()].flatMap((p) => (statesVerification(p) ? [{ id: p.id, offer: p.verificationOffer }] : [])),
      sources: this.sources.flatMap((s) => (statesVerification(s) ? [s.verificationOffer] : [])),
    };
  }

  /** The built-in schemes (code, not data), e.g. for the admin listing. */
  builtInIds(): string[] {
    return [...this.builtIn.keys()];
  }

  ids(): string[] {
    return [...this.all().keys()];
  }

  get(id: string): EidProvider | undefined {
    return this.builtIn.get(id) ?? this.dynamic.get(id);
  }

  /**
   * The schemes a merchant may use for a request: its own list (null = all) within what this environment
   * has, less those that say they cannot reach a requested level of assurance (SupportsAcr).
   */
  forRequest(allowed: string[] | null | undefined, acrValues: string[] = []): EidProvider[] {
    // Only levels this service defines count; an unknown value must not hide every scheme.
    const levels = acrValues.filter((a) => a === ACR_REQUEST_HIGH);
    return [...this.all().values()]
      .filter((p) => !allowed || allowed.includes(p.id))
      .filter((p) => !levels.length || !supportsAcr(p) || levels.some((acr) => p.supportsAcr(acr)));
  }

  /**
   * The scheme the request itself selects, if any: `login_hint=eid:<id>` or an acr value
   * `urn:svc:eid:<id>` (our extensions, documented in the README).
   */
  preselected(available: EidProvider[], loginHint: string | undefined, acrValues: string[]): EidProvider | undefined {
    const wanted = new Set<string>();
    if (loginHint?.startsWith('eid:')) wanted.add(loginHint.slice(4));
    for (const acr of acrValues) if (acr.startsWith(ACR_SCHEME_PREFIX)) wanted.add(acr.slice(ACR_SCHEME_PREFIX.length));
    return available.find((p) => wanted.has(p.id));
  }

  private all(): Map<string, EidProvider> {
    return new Map([...this.builtIn, ...this.dynamic]);
  }
}
