/**
 * Which of a login's claims a relying party receives for the scopes it was granted: the rule the OIDC engine
 * applies through its `claims` configuration (claimsByScope), written once for front doors without that
 * engine (SAML). Both start from the same account claims (the scheme's, the broker's acr, age_over_NN for
 * ageverifyNN scopes on the day), so the same login under the same scopes releases the same data.
 */
import { ageOverClaims } from './age.js';
import { claimsByScope } from './claim-table.js';
import type { ClaimValue } from './saml-attributes.js';

const BY_SCOPE = claimsByScope();

export interface ReleasableLogin {
  claims: Readonly<Record<string, unknown>>;
  acr?: string;
  /** ISO date of birth, for ageverifyNN. */
  birthDate?: string;
}

export function releasedClaims(login: ReleasableLogin, scopes: readonly string[], now: Date): Record<string, ClaimValue> {
  const account: Record<string, unknown> = {
    ...login.claims,
    ...(login.acr ? { acr: login.acr } : {}),
    ...ageOverClaims(scopes, login.birthDate, now),
  };
  const allowed = new Set(scopes.flatMap((s) => BY_SCOPE[s] ?? []));
  const out: Record<string, ClaimValue> = {};
  for (const [name, value] of Object.entries(account)) if (allowed.has(name) && value !== undefined && value !== null) out[name] = value as ClaimValue;
  return out;
}
