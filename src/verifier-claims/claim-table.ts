/**
 * The verifier claims of spec 2.1 as data: OIDC name, SAML attribute name and the scope that
 * gates the claim. Everything else in this module (scope configuration, SAML rendering, tests)
 * is derived from this one table so the three views can never drift apart.
 */
import { AGE_VERIFY_SCOPES, ageClaimName } from './age.js';

/** Scopes that gate verifier claims; spec 2.1 "none" means "always released with openid". */
export type VerifierClaimScope = 'openid' | 'profile' | 'ssn';

export interface VerifierClaimDefinition {
  /** OIDC claim name (spec 2.1 first column). */
  readonly oidcName: string;
  /** SAML attribute name, exactly as spec 2.1 second column (mixed case on purpose). */
  readonly samlName: string;
  readonly scope: VerifierClaimScope;
  /**
   * Who fills the claim: 'mapper' = mapVerifierClaims; 'broker' = the broker itself (acr depends
   * on the requested acr_values and the face match policy, which this pure module does not know).
   */
  readonly producedBy: 'mapper' | 'broker';
}

const claim = (oidcName: string, samlName: string, scope: VerifierClaimScope, producedBy: 'mapper' | 'broker' = 'mapper'): VerifierClaimDefinition =>
  Object.freeze({ oidcName, samlName, scope, producedBy });

/** Spec 2.1, in the spec's order. */
export const VERIFIER_CLAIMS: readonly VerifierClaimDefinition[] = Object.freeze([
  claim('document_type', 'documenttype', 'openid'),
  claim('issuing_country', 'issuingcountry', 'openid'),
  claim('interpreted_issuing_country', 'interpretedissuingcountry', 'openid'),
  claim('document_number', 'documentnumber', 'openid'),
  claim('primary_identifier', 'primaryidentifier', 'profile'),
  claim('secondary_identifier', 'secondaryidentifier', 'profile'),
  claim('nationality', 'nationality', 'profile'),
  claim('interpreted_nationality', 'interpretednationality', 'profile'),
  claim('birthdate', 'DOB', 'profile'),
  claim('personal_number', 'personalnumber', 'ssn'),
  claim('gender', 'gender', 'profile'),
  claim('date_of_expiry', 'dateofexpiry', 'openid'),
  claim('name', 'fullname', 'profile'),
  claim('place_of_birth', 'placeofbirth', 'profile'),
  claim('facematch_level', 'facematchlevel', 'openid'),
  claim('auth_files_url', 'AUTHFILESURL', 'openid'),
  claim('acr', 'ACR', 'openid', 'broker'),
  claim('authentication_sources', 'AUTHENTICATION_SOURCES', 'openid'),
  claim('other_identifier', 'OTHER_IDENTIFIER', 'openid'),
  claim('authentication_result', 'AUTHENTICATION_RESULT', 'openid'),
  claim('result_explanation', 'result_explanation', 'openid'),
]);

/**
 * Our extensions of spec 2.1, released and named the same way (kept apart so that VERIFIER_CLAIMS stays the spec's
 * table): `verified_at`, the day (ISO YYYY-MM-DD) the document was verified, given when a login reuses the service's
 * own credential issued after that verification (docs/eu-wallet.md#the-services-own-credential).
 */
export const EXTENSION_CLAIMS: readonly VerifierClaimDefinition[] = Object.freeze([claim('verified_at', 'verifiedat', 'openid')]);

/**
 * Standard OIDC claims the broker also advertises. given_name/family_name carry the holder's name split as the
 * document splits it (secondary/primary identifier, from DG11 when the chip has the full name, see holderNames in
 * names.ts) so generic OIDC clients find the holder's name where they expect it; they agree with `name`.
 */
export const STANDARD_SCOPE_CLAIMS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  openid: Object.freeze(['sub']),
  profile: Object.freeze(['given_name', 'family_name']),
  email: Object.freeze(['email', 'email_verified']),
  phone: Object.freeze(['phone_number', 'phone_number_verified']),
  address: Object.freeze(['address']),
});

/**
 * Our extensions beside the standard profile claims: `name`, `given_name` and `family_name` in the case a person
 * writes them ('Kåre Nordmann' beside 'KÅRE NORDMANN'; personCase in names.ts), released with `profile` like the
 * names they repeat. Like given_name/family_name they have no SAML attribute: spec 2.1 names none, and SAML
 * already carries the name as `fullname`.
 */
export const DISPLAY_NAME_CLAIMS: readonly string[] = Object.freeze(['display_name', 'display_given_name', 'display_family_name']);

const BY_OIDC_NAME: ReadonlyMap<string, VerifierClaimDefinition> = new Map([...VERIFIER_CLAIMS, ...EXTENSION_CLAIMS].map((c) => [c.oidcName, c]));

/** The spec 2.1 definition of a claim (or of our extension of it), or undefined for other claims. */
export function verifierClaim(oidcName: string): VerifierClaimDefinition | undefined {
  return BY_OIDC_NAME.get(oidcName);
}

export interface ClaimsByScopeOptions {
  /**
   * Which ageverifyNN scopes to configure (default: every scope spec 2.3 allows, i.e.
   * ageverify0..ageverify9 and ageverify00..ageverify99). A deployment may pass a shorter list to
   * keep the discovery document small; a scope not listed is then unknown to the provider.
   */
  readonly ageVerifyScopes?: readonly string[];
}

/**
 * scope -> claim names, in the shape of oidc-provider's `claims` configuration
 * (`{ openid: ['sub', ...], profile: [...], ssn: ['personal_number'], ageverify18: ['age_over_18'] }`).
 * Every claim appears under exactly one scope. `acr` is listed under openid so it is advertised in
 * claims_supported; the ID token's own acr (set by the broker) overrides any account value.
 */
export function claimsByScope(options: ClaimsByScopeOptions = {}): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const [scope, names] of Object.entries(STANDARD_SCOPE_CLAIMS)) result[scope] = [...names];
  result.profile!.push(...DISPLAY_NAME_CLAIMS);
  for (const c of [...VERIFIER_CLAIMS, ...EXTENSION_CLAIMS]) (result[c.scope] ??= []).push(c.oidcName);
  for (const scope of options.ageVerifyScopes ?? AGE_VERIFY_SCOPES) {
    const name = ageClaimName(scope);
    if (name === undefined) throw new RangeError(`not an ageverify scope: ${scope}`);
    result[scope] = [name];
  }
  return result;
}
