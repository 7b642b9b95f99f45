import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/load-config.js';
import { ACR_REQUEST_HIGH, ACR_SCHEME_PREFIX } from './acr.js';
import { EID_PROVIDERS, type EidProvider, supportsAcr } from './eid-provider.js';

/** The eID schemes enabled in this environment; fails at start if a test-only scheme is given to production. */
@Injectable()
export class EidRegistry {
  private readonly byId: Map<string, EidProvider>;

  constructor(@Inject(EID_PROVIDERS) providers: EidProvider[], @Inject(APP_CONFIG) config: AppConfig) {
    const refused = providers.filter((p) => p.testOnly && config.isProduction);
    if (refused.length) throw new Error(`test-only eID schemes cannot run in production: ${refused.map((p) => p.id).join(', ')}`);
    this.byId = new Map(providers.map((p) => [p.id, p]));
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  get(id: string): EidProvider | undefined {
    return this.byId.get(id);
  }

  /**
   * The schemes a merchant may use for a request: its own list (null = all) within what this environment
   * has, less those that say they cannot reach a requested level of assurance (SupportsAcr).
   */
  forRequest(allowed: string[] | null | undefined, acrValues: string[] = []): EidProvider[] {
    // Only levels this service defines count; an unknown value must not hide every scheme.
    const levels = acrValues.filter((a) => a === ACR_REQUEST_HIGH);
    return [...this.byId.values()]
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
}
