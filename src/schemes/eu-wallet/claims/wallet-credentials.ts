import { MDL_DOCTYPE, MDL_NAMESPACE, PID_MDOC_DOCTYPE, PID_SD_JWT_VCT, type WantedCredential } from '@identity-broker/eu-wallet';
import { AGE_VERIFY_SCOPE } from '../../../verifier-claims/age.js';

/**
 * The credentials the scheme accepts; each is also its DCQL credential query id (the key of its answer in vp_token).
 * `reused_identity` is the service's own credential, issued after a passed document verification (asked for only
 * when the service issues one and WALLET_TRUST_OWN_CREDENTIALS allows it).
 */
export type WalletCredentialKind = 'pid_sd_jwt' | 'pid_mdoc' | 'mdl' | 'reused_identity';

/** What the query needs to know to ask for the service's own credential: its type, and whether acr high was asked. */
export interface ReusedIdentityWanted {
  vct: string;
  acrHigh: boolean;
}

/** The age thresholds the merchant's ageverifyNN scopes ask about (the digits as written: ageverify05 is "05"). */
export const ageThresholds = (scopes: readonly string[]): string[] => [
  ...new Set(scopes.filter((s) => AGE_VERIFY_SCOPE.test(s)).map((s) => s.slice('ageverify'.length))),
];

/** The PID's `age_equal_or_over` keys are the age as a number ("18", "5"); mdoc elements are `age_over_` and two digits (ISO 18013-5 7.2.5). */
export const sdJwtAgeKey = (nn: string): string => String(Number(nn));
export const mdocAgeElement = (nn: string): string => `age_over_${nn.padStart(2, '0')}`;

/**
 * What to ask the wallet for, by the merchant's scopes, and nothing more (data minimisation): every login asks for
 * the issuing country (spec 2.1 releases it with `openid`), the mDL also for its document number (the subject of an
 * mDL login, as of a document verifier login); `profile` asks for names, birth date and nationality; `ageverifyNN`
 * for the age statement alone (`age_equal_or_over.NN` in the SD-JWT VC PID, `age_over_NN` in mdocs), so an
 * `ageverify18` merchant learns that and no birth date. Any one of the three credentials answers.
 */
export function wantedCredentials(scopes: readonly string[], reuse?: ReusedIdentityWanted): WantedCredential[] {
  const profile = scopes.includes('profile');
  const ages = profile ? [] : ageThresholds(scopes);
  // ['nationalities', null]: every element (1.0 §7.1); the array's elements are disclosures of their own.
  const sdJwt = [
    ['issuing_country'],
    ...(profile ? [['family_name'], ['given_name'], ['birthdate'], ['nationalities', null]] : []),
    ...ages.map((nn) => ['age_equal_or_over', sdJwtAgeKey(nn)]),
  ];
  const mdocElements = (ns: string, extra: string[]) =>
    [...extra, ...(profile ? ['family_name', 'given_name', 'birth_date'] : []), ...ages.map(mdocAgeElement)].map((e): [string, string] => [ns, e]);
  return [
    { id: 'pid_sd_jwt', format: 'dc+sd-jwt', vct: [PID_SD_JWT_VCT], claims: sdJwt },
    {
      id: 'pid_mdoc',
      format: 'mso_mdoc',
      doctype: PID_MDOC_DOCTYPE,
      claims: mdocElements(PID_MDOC_DOCTYPE, ['issuing_country', ...(profile ? ['nationality'] : [])]),
    },
    { id: 'mdl', format: 'mso_mdoc', doctype: MDL_DOCTYPE, claims: mdocElements(MDL_NAMESPACE, ['issuing_country', 'document_number']) },
    ...(reuse ? [reusedIdentityWanted(scopes, reuse)] : []),
  ] satisfies (WantedCredential & { id: WalletCredentialKind })[];
}

/** The ages the service's credential states (`age_equal_or_over`, as the PID); another threshold needs the birth date. */
export const REUSED_AGE_STATEMENTS: readonly string[] = ['12', '14', '16', '18', '21', '65'];

/**
 * The service's own credential (docs/eu-wallet.md#the-services-own-credential), asked by scope as the others:
 * always what spec 2.1 releases with `openid` and the subject needs (issuing country, document type and number,
 * document expiry, face match level), the day of the original verification (`verified_at`, released and needed for acr), and
 * `assurance` only when acr high was asked (it serves nothing else). `profile`: the names, birth date, nationality,
 * gender and place of birth; `ssn`: the personal number; `ageverifyNN` without profile: the age statement, or the
 * birth date for an age the credential has no statement for. A given name (mononyms), gender (X), place of birth
 * (DG11 only) and personal number are not on every document, so they are optional (claim_sets): a person whose
 * credential lacks one can still answer.
 */
function reusedIdentityWanted(scopes: readonly string[], reuse: ReusedIdentityWanted): WantedCredential & { id: 'reused_identity' } {
  const profile = scopes.includes('profile');
  const ages = profile ? [] : ageThresholds(scopes);
  const stated = ages.filter((nn) => REUSED_AGE_STATEMENTS.includes(sdJwtAgeKey(nn)));
  const needsBirthDate = profile || stated.length < ages.length;
  const claims = [
    ['issuing_country'],
    ['document_type'],
    ['document_number'],
    ['date_of_expiry'],
    ['verified_at'],
    ['facematch_level'],
    ...(reuse.acrHigh ? [['assurance']] : []),
    ...(profile ? [['primary_identifier'], ['name'], ['nationality']] : []),
    ...(needsBirthDate ? [['birthdate']] : []),
    ...stated.map((nn) => ['age_equal_or_over', sdJwtAgeKey(nn)]),
  ];
  const optionalClaims = [
    ...(profile ? [['secondary_identifier'], ['gender'], ['place_of_birth']] : []),
    ...(scopes.includes('ssn') ? [['personal_number']] : []),
  ];
  return { id: 'reused_identity', format: 'dc+sd-jwt', vct: [reuse.vct], claims, optionalClaims };
}
