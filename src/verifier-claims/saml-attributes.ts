/**
 * SAML rendering of verifier claims (spec 2.1: "SAML uses the attribute name in the second
 * column"). SAML attribute values here are plain strings.
 */
import { AGE_OVER_CLAIM } from './age.js';
import { verifierClaim } from './claim-table.js';

export type ClaimValue = string | number | boolean | readonly string[];

/**
 * OIDC claims -> `{ samlAttributeName: value }`.
 * - spec 2.1 claims (acr included, when the broker has added it) get their spec SAML name;
 * - arrays are joined with ',' (e.g. AUTHENTICATION_SOURCES 'SDK_NFC,SDK_FACESCAN'), numbers and
 *   booleans are written in decimal / 'true' / 'false';
 * - age_over_NN has no SAML name in the spec and keeps its OIDC name;
 * - every other claim (given_name/family_name and their display_* person-case forms, sub, ...) is left
 *   out: the spec names no SAML attribute for it. The holder's name reaches SAML as `fullname` (the same
 *   source as given_name/family_name), the document's identifiers as primaryidentifier/secondaryidentifier
 *   and the chip's other spellings as OTHER_IDENTIFIER.
 */
export function toSamlAttributes(claims: Readonly<Record<string, ClaimValue | undefined>>): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [name, value] of Object.entries(claims)) {
    if (value === undefined) continue;
    const samlName = verifierClaim(name)?.samlName ?? (AGE_OVER_CLAIM.test(name) ? name : undefined);
    if (samlName === undefined) continue;
    attributes[samlName] = isStringArray(value) ? value.join(',') : String(value);
  }
  return attributes;
}

function isStringArray(value: ClaimValue): value is readonly string[] {
  return Array.isArray(value);
}
