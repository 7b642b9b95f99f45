import type { AppConfig } from '../../../config/load-config.js';
import { ACR_EIDAS_HIGH } from '../acr.js';
import type { IdentityVerification } from './identity-verification.js';
import { SERVICE_TRUST_FRAMEWORK, TEST_TRUST_FRAMEWORK } from './predefined-values.js';

/*
 * The trust framework (and assurance level) a verification is stated under: the operator's word per scheme
 * (IDA_TRUST_FRAMEWORKS), never the scheme's. Here, below the front doors, because two of them state it: the OIDC
 * front door in `verified_claims`, the credential issuer in the credential's evidence summary; both must say the same.
 */

/** What the rule reads of a login: its scheme, its acr, and of its verification whether it was a test and what an upstream asserted. */
export interface FrameworkOfLogin {
  scheme: string;
  acr?: string;
  verification: Pick<IdentityVerification, 'test' | 'asserted'>;
}

/** A test run states the test framework whatever the configuration; the eIDAS-high level only a login that met the spec's rule for it (spec 2.1 acr). */
export function statedFramework(
  config: Pick<AppConfig, 'isProduction' | 'identityAssurance'>,
  login: FrameworkOfLogin,
): { trust_framework: string; assurance_level?: string } {
  if (login.verification.test || !config.isProduction) return { trust_framework: TEST_TRUST_FRAMEWORK };
  const configured = config.identityAssurance[login.scheme];
  if (!configured) return { trust_framework: SERVICE_TRUST_FRAMEWORK };
  const high = login.acr === ACR_EIDAS_HIGH;
  const level = high ? (configured.assurance_level_high ?? configured.assurance_level) : configured.assurance_level;
  const asserted = login.verification.asserted;
  // An upstream's own statement counts only within the framework the operator trusts it for, and never above it.
  if (asserted && asserted.trust_framework === configured.trust_framework && asserted.assurance_level !== undefined) {
    const levels = [configured.assurance_level, high ? configured.assurance_level_high : undefined];
    return {
      trust_framework: configured.trust_framework,
      ...(levels.includes(asserted.assurance_level) ? { assurance_level: asserted.assurance_level } : level ? { assurance_level: level } : {}),
    };
  }
  return { trust_framework: configured.trust_framework, ...(level ? { assurance_level: level } : {}) };
}
