import { ACR_EIDAS_HIGH } from '../../broker/spi/acr.js';
import type { IdentityVerification, VerificationEvidence } from '../../broker/spi/identity-assurance/identity-verification.js';
import { SERVICE_TRUST_FRAMEWORK, TEST_TRUST_FRAMEWORK } from '../../broker/spi/identity-assurance/predefined-values.js';
import type { AppConfig } from '../../config/load-config.js';

/*
 * The `verification` element a login can state (IDA Schema Definition 1.0 §5): the scheme's facts, under the trust
 * framework the operator configured for the scheme (IDA_TRUST_FRAMEWORKS). A test run states the test framework
 * whatever the configuration; the eIDAS-high level only a login that met the spec's rule for it (spec 2.1 acr).
 */

export interface StatingLogin {
  scheme: string;
  acr?: string;
  verification: IdentityVerification;
}

export function statedFramework(
  config: Pick<AppConfig, 'isProduction' | 'identityAssurance'>,
  login: StatingLogin,
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

/** Everything the login can state, before the merchant's request picks from it; `ssn`: the merchant may see the personal number. */
export function statedVerification(config: Pick<AppConfig, 'isProduction' | 'identityAssurance'>, login: StatingLogin, ssn: boolean): Record<string, unknown> {
  const v = login.verification;
  return {
    ...statedFramework(config, login),
    time: v.time,
    verification_process: v.process,
    evidence: ssn ? v.evidence : v.evidence.map(withoutPersonalNumber),
  };
}

/** The personal number is released with `ssn` only (spec 2.1), in the evidence as among the plain claims. */
function withoutPersonalNumber(evidence: VerificationEvidence): VerificationEvidence {
  if (evidence.type !== 'document' || evidence.document_details?.personal_number === undefined) return evidence;
  const { personal_number: _, ...details } = evidence.document_details;
  return { ...evidence, document_details: details };
}
