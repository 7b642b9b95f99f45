/**
 * Injectable face of the pure functions, for Nest consumers that prefer DI. It adds nothing:
 * non-Nest code (tests, CLI, workers) should import the functions directly.
 */
import { Injectable } from '@nestjs/common';
import { ageOverClaims } from './age.js';
import { claimsByScope, type ClaimsByScopeOptions } from './claim-table.js';
import { mapVerifierClaims, type DocumentHolderData, type VerificationOutcome, type VerifierClaims } from './map-verifier-claims.js';
import { toSamlAttributes, type ClaimValue } from './saml-attributes.js';

@Injectable()
export class VerifierClaimsService {
  map(holder: DocumentHolderData, outcome: VerificationOutcome, now: Date = new Date()): VerifierClaims {
    return mapVerifierClaims(holder, outcome, now);
  }

  ageOver(scopes: readonly string[], birthDateIso: string | undefined, now: Date = new Date()): Record<string, boolean> {
    return ageOverClaims(scopes, birthDateIso, now);
  }

  claimsByScope(options?: ClaimsByScopeOptions): Record<string, string[]> {
    return claimsByScope(options);
  }

  toSamlAttributes(claims: Readonly<Record<string, ClaimValue | undefined>>): Record<string, string> {
    return toSamlAttributes(claims);
  }
}
