import type { UiLocale } from './locales.js';

/** The global logout's pages (apart from the sign-in messages: only these two pages use them). */
export interface LogoutMessages {
  title: string;
  /** `{merchant}`: the service that sent the user here, or our own name when none did. */
  question: string;
  everywhere: string;
  onlyThis: string;
  done: string;
}

export const LOGOUT_MESSAGES: Record<UiLocale, LogoutMessages> = {
  en_GB: {
    title: 'Sign out',
    question: 'Do you want to sign out? {merchant} asked to end your sign-in.',
    everywhere: 'Sign out of all services',
    onlyThis: 'Sign out of {merchant} only',
    done: 'You are signed out. You can close this page.',
  },
  nb_NO: {
    title: 'Logg ut',
    question: 'Vil du logge ut? {merchant} har bedt om å avslutte innloggingen din.',
    everywhere: 'Logg ut av alle tjenester',
    onlyThis: 'Logg ut bare av {merchant}',
    done: 'Du er logget ut. Du kan lukke denne siden.',
  },
  nn_NO: {
    title: 'Logg ut',
    question: 'Vil du logge ut? {merchant} har bede om å avslutte innlogginga di.',
    everywhere: 'Logg ut av alle tenester',
    onlyThis: 'Logg ut berre av {merchant}',
    done: 'Du er logga ut. Du kan lukke denne sida.',
  },
  da_DK: {
    title: 'Log ud',
    question: 'Vil du logge ud? {merchant} har bedt om at afslutte dit login.',
    everywhere: 'Log ud af alle tjenester',
    onlyThis: 'Log kun ud af {merchant}',
    done: 'Du er logget ud. Du kan lukke denne side.',
  },
  sv_SE: {
    title: 'Logga ut',
    question: 'Vill du logga ut? {merchant} har bett om att avsluta din inloggning.',
    everywhere: 'Logga ut från alla tjänster',
    onlyThis: 'Logga bara ut från {merchant}',
    done: 'Du är utloggad. Du kan stänga den här sidan.',
  },
  sv_FI: {
    title: 'Logga ut',
    question: 'Vill du logga ut? {merchant} har bett om att avsluta din inloggning.',
    everywhere: 'Logga ut från alla tjänster',
    onlyThis: 'Logga bara ut från {merchant}',
    done: 'Du är utloggad. Du kan stänga den här sidan.',
  },
  fi_FI: {
    title: 'Kirjaudu ulos',
    question: 'Haluatko kirjautua ulos? {merchant} pyysi lopettamaan kirjautumisesi.',
    everywhere: 'Kirjaudu ulos kaikista palveluista',
    onlyThis: 'Kirjaudu ulos vain palvelusta {merchant}',
    done: 'Olet kirjautunut ulos. Voit sulkea tämän sivun.',
  },
  et_EE: {
    title: 'Logi välja',
    question: 'Kas soovid välja logida? {merchant} palus sinu sisselogimise lõpetada.',
    everywhere: 'Logi välja kõigist teenustest',
    onlyThis: 'Logi välja ainult teenusest {merchant}',
    done: 'Oled välja logitud. Võid selle lehe sulgeda.',
  },
  lv_LV: {
    title: 'Iziet',
    question: 'Vai vēlaties iziet? {merchant} lūdza beigt jūsu pieteikšanos.',
    everywhere: 'Iziet no visiem pakalpojumiem',
    onlyThis: 'Iziet tikai no {merchant}',
    done: 'Jūs esat izgājis. Varat aizvērt šo lapu.',
  },
  de_DE: {
    title: 'Abmelden',
    question: 'Möchten Sie sich abmelden? {merchant} hat gebeten, Ihre Anmeldung zu beenden.',
    everywhere: 'Von allen Diensten abmelden',
    onlyThis: 'Nur von {merchant} abmelden',
    done: 'Sie sind abgemeldet. Sie können diese Seite schließen.',
  },
  nl_NL: {
    title: 'Afmelden',
    question: 'Wilt u zich afmelden? {merchant} heeft gevraagd uw aanmelding te beëindigen.',
    everywhere: 'Afmelden bij alle diensten',
    onlyThis: 'Alleen afmelden bij {merchant}',
    done: 'U bent afgemeld. U kunt deze pagina sluiten.',
  },
  fr_FR: {
    title: 'Se déconnecter',
    question: 'Voulez-vous vous déconnecter ? {merchant} a demandé de mettre fin à votre connexion.',
    everywhere: 'Se déconnecter de tous les services',
    onlyThis: 'Se déconnecter de {merchant} uniquement',
    done: 'Vous êtes déconnecté. Vous pouvez fermer cette page.',
  },
};
