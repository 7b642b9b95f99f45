import type { UiLocale } from './locales.js';

/** The SAML Browser/POST page: shown for a moment while a script posts the answer, or until pressed without scripts. */
export interface SamlPostMessages {
  /** `{merchant}`: the service the answer goes to. */
  heading: string;
  /** Shown only without scripts (inside noscript): why the page waits for a press. */
  noScript: string;
  button: string;
}

const sv: SamlPostMessages = {
  heading: 'Tillbaka till {merchant}',
  noScript: 'Skript är avstängda i din webbläsare: tryck på knappen för att återvända till {merchant}.',
  button: 'Fortsätt till {merchant}',
};

export const SAML_POST_MESSAGES: Record<UiLocale, SamlPostMessages> = {
  en_GB: {
    heading: 'Returning to {merchant}',
    noScript: 'Scripts are turned off in your browser: press the button to return to {merchant}.',
    button: 'Continue to {merchant}',
  },
  nb_NO: {
    heading: 'Tilbake til {merchant}',
    noScript: 'Skript er slått av i nettleseren din: trykk på knappen for å gå tilbake til {merchant}.',
    button: 'Fortsett til {merchant}',
  },
  nn_NO: {
    heading: 'Tilbake til {merchant}',
    noScript: 'Skript er slått av i nettlesaren din: trykk på knappen for å gå tilbake til {merchant}.',
    button: 'Hald fram til {merchant}',
  },
  da_DK: {
    heading: 'Tilbage til {merchant}',
    noScript: 'Scripts er slået fra i din browser: tryk på knappen for at vende tilbage til {merchant}.',
    button: 'Fortsæt til {merchant}',
  },
  sv_SE: sv,
  sv_FI: sv,
  fi_FI: {
    heading: 'Palataan palveluun {merchant}',
    noScript: 'Selaimesi ei suorita skriptejä: palaa palveluun {merchant} painamalla painiketta.',
    button: 'Jatka palveluun {merchant}',
  },
  et_EE: {
    heading: 'Tagasi teenusesse {merchant}',
    noScript: 'Skriptid on teie brauseris välja lülitatud: vajutage nuppu, et naasta teenusesse {merchant}.',
    button: 'Jätka teenusesse {merchant}',
  },
  lv_LV: {
    heading: 'Atgriešanās pakalpojumā {merchant}',
    noScript: 'Jūsu pārlūkprogrammā skripti ir izslēgti: nospiediet pogu, lai atgrieztos pakalpojumā {merchant}.',
    button: 'Turpināt uz {merchant}',
  },
  de_DE: {
    heading: 'Zurück zu {merchant}',
    noScript: 'In Ihrem Browser sind Skripte ausgeschaltet: Drücken Sie die Schaltfläche, um zu {merchant} zurückzukehren.',
    button: 'Weiter zu {merchant}',
  },
  nl_NL: {
    heading: 'Terug naar {merchant}',
    noScript: 'Scripts staan uit in uw browser: druk op de knop om terug te gaan naar {merchant}.',
    button: 'Doorgaan naar {merchant}',
  },
  fr_FR: {
    heading: 'Retour vers {merchant}',
    noScript: 'Les scripts sont désactivés dans votre navigateur : appuyez sur le bouton pour revenir à {merchant}.',
    button: 'Continuer vers {merchant}',
  },
};
