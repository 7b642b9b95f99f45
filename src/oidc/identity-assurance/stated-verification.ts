import type { IdentityVerification, VerificationEvidence } from '../../broker/spi/identity-assurance/identity-verification.js';
import { statedFramework, type FrameworkOfLogin } from '../../broker/spi/identity-assurance/stated-framework.js';
import type { AppConfig } from '../../config/load-config.js';

/*
 * The `verification` element a login can state (IDA Schema Definition 1.0 §5): the scheme's facts, under the trust
 * framework the operator configured for the scheme (IDA_TRUST_FRAMEWORKS; the rule is the SPI's statedFramework, which
 * the credential issuer states too).
 */

export interface StatingLogin extends FrameworkOfLogin {
  verification: IdentityVerification;
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
