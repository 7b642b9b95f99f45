import type { UiLocale } from '../../../i18n/locales.js';

/** The steps the phone reports on the verifier's waiting page, in their order, with their names per locale. */
export const VERIFIER_STEPS = ['phone_connected', 'document_read', 'face_checked'] as const;

type StepNames = Record<(typeof VERIFIER_STEPS)[number], string>;

const en: StepNames = { phone_connected: 'Phone connected', document_read: 'Document read', face_checked: 'Face checked' };
const sv: StepNames = { phone_connected: 'Telefonen ansluten', document_read: 'Handlingen läst', face_checked: 'Ansiktet kontrollerat' };

export const VERIFIER_STEP_NAMES: Record<UiLocale, StepNames> = {
  en_GB: en,
  sv_SE: sv,
  sv_FI: sv,
  nb_NO: { phone_connected: 'Telefonen er tilkoblet', document_read: 'Dokumentet er lest', face_checked: 'Ansiktet er kontrollert' },
  nn_NO: { phone_connected: 'Telefonen er kopla til', document_read: 'Dokumentet er lese', face_checked: 'Andletet er kontrollert' },
  da_DK: { phone_connected: 'Telefonen er forbundet', document_read: 'Dokumentet er læst', face_checked: 'Ansigtet er kontrolleret' },
  fi_FI: { phone_connected: 'Puhelin yhdistetty', document_read: 'Asiakirja luettu', face_checked: 'Kasvot tarkistettu' },
  et_EE: { phone_connected: 'Telefon ühendatud', document_read: 'Dokument loetud', face_checked: 'Nägu kontrollitud' },
  lv_LV: { phone_connected: 'Tālrunis pievienots', document_read: 'Dokuments nolasīts', face_checked: 'Seja pārbaudīta' },
  de_DE: { phone_connected: 'Telefon verbunden', document_read: 'Dokument gelesen', face_checked: 'Gesicht geprüft' },
  nl_NL: { phone_connected: 'Telefoon verbonden', document_read: 'Document gelezen', face_checked: 'Gezicht gecontroleerd' },
  fr_FR: { phone_connected: 'Téléphone connecté', document_read: 'Document lu', face_checked: 'Visage vérifié' },
};
