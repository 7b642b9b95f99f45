/** Public surface of the verifier-claims module: plain functions, usable without Nest. */
export { AGE_OVER_CLAIM, AGE_VERIFY_SCOPE, AGE_VERIFY_SCOPES, ageClaimName, ageOverClaims } from './age.js';
export {
  STANDARD_SCOPE_CLAIMS,
  VERIFIER_CLAIMS,
  claimsByScope,
  verifierClaim,
  type ClaimsByScopeOptions,
  type VerifierClaimDefinition,
  type VerifierClaimScope,
} from './claim-table.js';
export { ICAO_SPECIAL_CODES, LEGACY_CODES, countryName, knownCountryCodes } from './country-names.js';
export { birthDateFromDg11, birthDateFromMrz, expiryDateFromMrz, formatIsoDate, parseIsoDate, toSpecDate, type PartialDate } from './dates.js';
export { documentType, type DocumentType } from './document-type.js';
export {
  mapVerifierClaims,
  type AuthenticationSource,
  type DocumentHolderData,
  type VerificationOutcome,
  type VerifierClaims,
} from './map-verifier-claims.js';
export { holderName, isMrzNameTruncated, otherIdentifier, parseMrzName, readableName, type NameParts } from './names.js';
export { toSamlAttributes, type ClaimValue } from './saml-attributes.js';
export { releasedClaims, type ReleasableLogin } from './release.js';
