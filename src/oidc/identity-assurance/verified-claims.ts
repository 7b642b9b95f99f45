import type { BrokeredIdentity } from '../../broker/spi/eid-provider.js';
import type { AppConfig } from '../../config/load-config.js';
import { releasedClaims } from '../../verifier-claims/release.js';
import { answerClaimSet } from './verified-claims-answer.js';
import { verifiedClaimsSets } from './verified-claims-request.js';
import { verifiedPersonClaims } from './verified-person-claims.js';
import { statedVerification } from './stated-verification.js';

export const VERIFIED_CLAIMS = 'verified_claims';

export type AssuranceSettings = Pick<AppConfig, 'isProduction' | 'identityAssurance'>;

/**
 * `verified_claims` for one target (the ID token or user-info) of a login, as the merchant requested them through the
 * claims parameter (`requested`: the engine's request for that target, already checked when the authorization request
 * came in): undefined when none were requested, the login has no verification to state, or every set is omitted.
 */
export function verifiedClaimsOf(
  requested: Record<string, unknown> | undefined,
  login: { scheme: string; identity: BrokeredIdentity },
  scopes: readonly string[],
  settings: AssuranceSettings,
  now: Date,
): unknown {
  const verification = login.identity.verification;
  if (!requested?.[VERIFIED_CLAIMS] || !verification) return undefined;
  const wanted = requested[VERIFIED_CLAIMS];
  const sets = verifiedClaimsSets(requested, 'claims');
  const plain = releasedClaims(login.identity, scopes, now);
  const claims = verifiedPersonClaims(plain, login.identity.birthDate);
  const stated = statedVerification(settings, { scheme: login.scheme, acr: login.identity.acr, verification }, plain.personal_number !== undefined);
  const answers = sets.flatMap((set) => answerClaimSet(set, stated, claims, now) ?? []);
  if (!answers.length) return undefined;
  return Array.isArray(wanted) ? answers : answers[0];
}
