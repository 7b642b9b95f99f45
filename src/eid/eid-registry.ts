import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/load-config.js';
import { ACR_SCHEME_PREFIX } from './acr.js';
import { EID_PROVIDERS, type EidProvider } from './eid-provider.js';

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

  /** The schemes a merchant may use: its own list (null = all) within what this environment has. */
  forMerchant(allowed: string[] | null | undefined): EidProvider[] {
    return [...this.byId.values()].filter((p) => !allowed || allowed.includes(p.id));
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
