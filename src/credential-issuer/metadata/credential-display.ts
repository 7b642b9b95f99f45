import { AGE_STATEMENTS } from '../credential/credential-claims.js';
import { CREDENTIAL_OFFER_MESSAGES, type CredentialClaimLabel } from '../../i18n/credential-offer-messages.js';
import { UI_LOCALES } from '../../i18n/locales.js';

/** A ui_locale (spec 2.9, `nb_NO`) as the BCP 47 tag metadata carries (`nb-NO`). */
const tagOf = (locale: string) => locale.replace('_', '-');

/** The claims of the credential in the order a wallet should show them, each with its label in the 12 locales. */
const CLAIM_ORDER: CredentialClaimLabel[] = [
  'primary_identifier',
  'secondary_identifier',
  'name',
  'birthdate',
  'place_of_birth',
  'gender',
  'nationality',
  'personal_number',
  'document_type',
  'document_number',
  'issuing_country',
  'date_of_expiry',
  'age_equal_or_over',
  'verified_at',
  'facematch_level',
  'assurance',
  'verification_trust_framework',
  'verification_evidence_type',
  'verification_time',
];

export interface ClaimDisplay {
  path: (string | null)[];
  display: { locale: string; name: string }[];
}

/** The credential's name and description in every UI locale. */
export function credentialDisplay(): { locale: string; name: string; description: string }[] {
  return UI_LOCALES.map((l) => ({
    locale: tagOf(l),
    name: CREDENTIAL_OFFER_MESSAGES[l].credentialName,
    description: CREDENTIAL_OFFER_MESSAGES[l].credentialDescription,
  }));
}

/** One entry per claim path, age statements one per age ("Aged 18 or over"). */
export function claimDisplays(): ClaimDisplay[] {
  const labelled = (label: (l: (typeof UI_LOCALES)[number]) => string) => UI_LOCALES.map((l) => ({ locale: tagOf(l), name: label(l) }));
  return CLAIM_ORDER.flatMap((claim): ClaimDisplay[] => [
    { path: [claim], display: labelled((l) => CREDENTIAL_OFFER_MESSAGES[l].claimLabels[claim]) },
    ...(claim === 'age_equal_or_over'
      ? AGE_STATEMENTS.map((age) => ({ path: [claim, age], display: labelled((l) => CREDENTIAL_OFFER_MESSAGES[l].ageStatement.replace('{age}', age)) }))
      : []),
  ]);
}
