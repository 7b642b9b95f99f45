import type { VerificationOffer } from '../../broker/spi/identity-assurance/identity-verification.js';
import { SERVICE_TRUST_FRAMEWORK, TEST_TRUST_FRAMEWORK } from '../../broker/spi/identity-assurance/predefined-values.js';
import { CLAIMS_IN_VERIFIED_CLAIMS } from './verified-person-claims.js';
import type { AssuranceSettings } from './verified-claims.js';

/** The schemes that can state a verification here: built-in ones by id, and whether schemes that are data (any id) can. */
export interface AssuranceSchemes {
  builtIn: { id: string; offer: VerificationOffer }[];
  /** Offers of sources of schemes that are data (upstream OpenID Connect): their schemes' ids are not known in advance. */
  sources: VerificationOffer[];
}

const unique = <T>(values: Iterable<T>) => [...new Set(values)].sort();

/**
 * The provider metadata of OpenID Connect for Identity Assurance 1.0 §7, for exactly what this deployment can state:
 * the frameworks of its enabled schemes (only the test framework in customer-test), their evidence, documents, check
 * methods and records. Without a scheme that states anything, `verified_claims_supported` is false and nothing else
 * is said.
 */
export function assuranceMetadata(settings: AssuranceSettings, schemes: AssuranceSchemes): Record<string, unknown> {
  const offers = [...schemes.builtIn.map((s) => s.offer), ...schemes.sources];
  if (!offers.length) return { verified_claims_supported: false };
  const builtInIds = new Set(schemes.builtIn.map((s) => s.id));
  const frameworks = !settings.isProduction
    ? [TEST_TRUST_FRAMEWORK]
    : unique([
        ...schemes.builtIn.map((s) => settings.identityAssurance[s.id]?.trust_framework ?? SERVICE_TRUST_FRAMEWORK),
        // A scheme that is data may have any id: every framework configured for an id no built-in scheme has, or none.
        ...(schemes.sources.length
          ? [SERVICE_TRUST_FRAMEWORK, ...Object.entries(settings.identityAssurance).flatMap(([id, c]) => (builtInIds.has(id) ? [] : [c.trust_framework]))]
          : []),
      ]);
  const evidence = unique(offers.flatMap((o) => o.evidence));
  const documents = unique(offers.flatMap((o) => o.documents ?? []));
  const checkMethods = unique(offers.flatMap((o) => o.documentCheckMethods ?? []));
  const records = unique(offers.flatMap((o) => o.records ?? []));
  return {
    verified_claims_supported: true,
    trust_frameworks_supported: frameworks,
    evidence_supported: evidence,
    ...(evidence.includes('document') ? { documents_supported: documents } : {}),
    ...(checkMethods.length ? { documents_check_methods_supported: checkMethods } : {}),
    ...(evidence.includes('electronic_record') ? { electronic_records_supported: records } : {}),
    claims_in_verified_claims_supported: [...CLAIMS_IN_VERIFIED_CLAIMS],
  };
}

/**
 * Adds the metadata to the engine's discovery document. Computed at the first discovery request of an engine, not when
 * the engine is configured: the schemes register with the broker after the engine exists.
 */
export function applyAssuranceMetadata(
  provider: { use(middleware: (ctx: KoaLike, next: () => Promise<void>) => Promise<void>): unknown },
  compute: () => Record<string, unknown>,
): void {
  let metadata: Record<string, unknown> | undefined;
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.oidc?.route !== 'discovery' || typeof ctx.body !== 'object' || ctx.body === null) return;
    Object.assign(ctx.body, (metadata ??= compute()));
  });
}

interface KoaLike {
  oidc?: { route?: string };
  body?: unknown;
}
