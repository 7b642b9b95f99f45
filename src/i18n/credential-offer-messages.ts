import { DE, ET, FR, LV, NL } from './credential-offer-messages-continental.js';
import { DA, FI, NB, NN, SV } from './credential-offer-messages-nordic.js';
import type { UiLocale } from './locales.js';

/**
 * The verified-document-identity credential as wallets show it (type metadata and issuer metadata `display`, one
 * label per claim), and the offer page at the end of a passed verification.
 */
export interface CredentialOfferMessages {
  /** The credential's name in a wallet. */
  credentialName: string;
  credentialDescription: string;
  /** Claim labels, by claim name (age statements by their age: "18" → "Aged 18 or over"). */
  claimLabels: Record<CredentialClaimLabel, string>;
  /** "Aged {age} or over" */
  ageStatement: string;
  // The offer page.
  offerTitle: string;
  offerIntro: string;
  /** Same device: the button that opens the wallet. */
  openWallet: string;
  /** Shown only on a desktop, where the button is not: it stands on its own (no "Or …"). */
  qrInstruction: string;
  qrLabel: string;
  /** Heading above the transaction code. */
  txCodeLabel: string;
  txCodeHelp: string;
  /** "The offer is valid until {time} (UTC)." */
  validUntil: string;
  /** "Continue to {merchant}" */
  continueTo: string;
  /** Text before the revocation link. */
  revokeHelp: string;
  revokeLink: string;
}

export type CredentialClaimLabel =
  | 'document_type'
  | 'issuing_country'
  | 'document_number'
  | 'personal_number'
  | 'date_of_expiry'
  | 'primary_identifier'
  | 'secondary_identifier'
  | 'name'
  | 'birthdate'
  | 'nationality'
  | 'gender'
  | 'place_of_birth'
  | 'age_equal_or_over'
  | 'facematch_level'
  | 'verified_at'
  | 'assurance'
  | 'verification_trust_framework'
  | 'verification_evidence_type'
  | 'verification_time';

const en: CredentialOfferMessages = {
  credentialName: 'Verified identity document',
  credentialDescription: 'Your identity as read from the chip of your passport or ID card and matched to your face.',
  claimLabels: {
    document_type: 'Document type',
    issuing_country: 'Issuing country',
    document_number: 'Document number',
    personal_number: 'Personal number',
    date_of_expiry: 'Document expiry date',
    primary_identifier: 'Surname',
    secondary_identifier: 'Given names',
    name: 'Full name',
    birthdate: 'Date of birth',
    nationality: 'Nationality',
    gender: 'Sex',
    place_of_birth: 'Place of birth',
    age_equal_or_over: 'Age statements',
    facematch_level: 'Face match level',
    verified_at: 'Verified on',
    assurance: 'Level of assurance',
    verification_trust_framework: 'Trust framework',
    verification_evidence_type: 'Evidence examined',
    verification_time: 'Verification time',
  },
  ageStatement: 'Aged {age} or over',
  offerTitle: 'Keep your verified identity in your wallet',
  offerIntro:
    'Your document was verified. Add it to your EU Digital Identity Wallet and you can prove who you are next time without scanning your document again.',
  openWallet: 'Add to wallet',
  qrInstruction: 'Scan this QR code with your wallet on your phone.',
  qrLabel: 'QR code with the credential offer',
  txCodeLabel: 'Transaction code',
  txCodeHelp: 'Your wallet will ask for this code. Do not share it with anyone.',
  validUntil: 'The offer is valid until {time} (UTC).',
  continueTo: 'Continue to {merchant}',
  revokeHelp: 'Lost your phone, or changed your mind? Keep this link to revoke the credential later:',
  revokeLink: 'Revoke the credential',
};

/** The translations live in two files beside this one (a file per group of languages keeps each one short). */
export const CREDENTIAL_OFFER_MESSAGES: Record<UiLocale, CredentialOfferMessages> = {
  en_GB: en,
  nb_NO: NB,
  nn_NO: NN,
  da_DK: DA,
  sv_SE: SV,
  sv_FI: SV,
  fi_FI: FI,
  et_EE: ET,
  lv_LV: LV,
  de_DE: DE,
  nl_NL: NL,
  fr_FR: FR,
};
