import type { UiLocale } from './locales.js';

/** The page shown when a user comes back from an upstream eID without being identified. */
export interface UpstreamMessages {
  title: string;
  cancelled: string;
  failed: string;
  /** `{merchant}`: the service the user was signing in to. */
  back: string;
  /** The callback could not be matched to a sign-in (missing, unknown, used or expired state). */
  stateRefused: string;
}

const sv: UpstreamMessages = {
  title: 'Inloggningen slutfördes inte',
  cancelled: 'Du avbröt identifieringen.',
  failed: 'Identifieringsmetoden kunde inte bekräfta vem du är.',
  back: 'Tillbaka till {merchant}',
  stateRefused: 'Svaret från identifieringsmetoden hör inte till någon pågående inloggning, eller har redan använts. Börja om från tjänsten.',
};

export const UPSTREAM_MESSAGES: Record<UiLocale, UpstreamMessages> = {
  en_GB: {
    title: 'Sign-in not completed',
    cancelled: 'You cancelled the identification.',
    failed: 'The identification method could not confirm who you are.',
    back: 'Back to {merchant}',
    stateRefused: 'The answer of the identification method belongs to no sign-in in progress, or was already used. Please start again from the service.',
  },
  nb_NO: {
    title: 'Innloggingen ble ikke fullført',
    cancelled: 'Du avbrøt identifiseringen.',
    failed: 'Identifiseringsmetoden kunne ikke bekrefte hvem du er.',
    back: 'Tilbake til {merchant}',
    stateRefused: 'Svaret fra identifiseringsmetoden hører ikke til noen pågående innlogging, eller er allerede brukt. Start på nytt fra tjenesten.',
  },
  nn_NO: {
    title: 'Innlogginga vart ikkje fullført',
    cancelled: 'Du avbraut identifiseringa.',
    failed: 'Identifiseringsmetoden kunne ikkje stadfeste kven du er.',
    back: 'Tilbake til {merchant}',
    stateRefused: 'Svaret frå identifiseringsmetoden høyrer ikkje til noka pågåande innlogging, eller er allereie brukt. Start på nytt frå tenesta.',
  },
  da_DK: {
    title: 'Login blev ikke gennemført',
    cancelled: 'Du afbrød identifikationen.',
    failed: 'Identifikationsmetoden kunne ikke bekræfte, hvem du er.',
    back: 'Tilbage til {merchant}',
    stateRefused: 'Svaret fra identifikationsmetoden hører ikke til et igangværende login, eller er allerede brugt. Start forfra fra tjenesten.',
  },
  sv_SE: sv,
  sv_FI: sv,
  fi_FI: {
    title: 'Kirjautuminen ei valmistunut',
    cancelled: 'Peruutit tunnistautumisen.',
    failed: 'Tunnistusmenetelmä ei voinut vahvistaa henkilöllisyyttäsi.',
    back: 'Takaisin palveluun {merchant}',
    stateRefused: 'Tunnistusmenetelmän vastaus ei kuulu mihinkään käynnissä olevaan kirjautumiseen, tai se on jo käytetty. Aloita alusta palvelussa.',
  },
  et_EE: {
    title: 'Sisselogimine jäi lõpetamata',
    cancelled: 'Sa katkestasid tuvastamise.',
    failed: 'Tuvastusmeetod ei suutnud kinnitada, kes sa oled.',
    back: 'Tagasi teenusesse {merchant}',
    stateRefused: 'Tuvastusmeetodi vastus ei kuulu ühegi pooleli oleva sisselogimise juurde või on juba kasutatud. Alusta uuesti teenusest.',
  },
  lv_LV: {
    title: 'Pieteikšanās netika pabeigta',
    cancelled: 'Jūs atcēlāt identifikāciju.',
    failed: 'Identifikācijas metode nevarēja apstiprināt, kas jūs esat.',
    back: 'Atpakaļ uz {merchant}',
    stateRefused: 'Identifikācijas metodes atbilde nepieder nevienai notiekošai pieteikšanās reizei vai jau ir izmantota. Sāciet no jauna pakalpojumā.',
  },
  de_DE: {
    title: 'Anmeldung nicht abgeschlossen',
    cancelled: 'Sie haben die Identifizierung abgebrochen.',
    failed: 'Das Identifizierungsverfahren konnte nicht bestätigen, wer Sie sind.',
    back: 'Zurück zu {merchant}',
    stateRefused:
      'Die Antwort des Identifizierungsverfahrens gehört zu keiner laufenden Anmeldung oder wurde bereits verwendet. Bitte beginnen Sie erneut beim Dienst.',
  },
  nl_NL: {
    title: 'Aanmelden niet voltooid',
    cancelled: 'U hebt de identificatie geannuleerd.',
    failed: 'De identificatiemethode kon niet bevestigen wie u bent.',
    back: 'Terug naar {merchant}',
    stateRefused: 'Het antwoord van de identificatiemethode hoort bij geen lopende aanmelding, of is al gebruikt. Begin opnieuw bij de dienst.',
  },
  fr_FR: {
    title: 'Connexion non terminée',
    cancelled: "Vous avez annulé l'identification.",
    failed: "La méthode d'identification n'a pas pu confirmer votre identité.",
    back: 'Retour à {merchant}',
    stateRefused: "La réponse de la méthode d'identification n'appartient à aucune connexion en cours, ou a déjà été utilisée. Recommencez depuis le service.",
  },
};
