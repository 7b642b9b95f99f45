import type { UiLocale } from './locales.js';

/**
 * A waiting page: the hand-off to the ID app, and the core's words around the steps the phone reports as it goes (the
 * steps themselves are the scheme's: EidStep `waiting`, `steps`). `{app}` is the
 * app's name from the configuration (VERIFIER_APP_NAME): a product name, never a generic "ID app", which in German
 * would read as the government's AusweisApp.
 */
export interface WaitingMessages {
  openApp: string;
  phoneInstruction: string;
  qrInstruction: string;
  qrLabel: string;
  copyLink: string;
  linkLabel: string;
  /** The help for a person without the app (its name and store links come from the configuration). */
  noApp: string;
  noAppHelp: string;
  continueHint: string;
  progressTitle: string;
  done: string;
  completed: string;
  stopped: string;
}

/**
 * The hand-off texts of a waiting page, for a scheme whose other device is not the ID app (a wallet): the button
 * that opens it on this device, what to do with the QR code, and what the page waits for (the wallet, not "the app").
 */
export type WaitingTexts = Pick<WaitingMessages, 'openApp' | 'phoneInstruction' | 'qrInstruction' | 'qrLabel' | 'linkLabel' | 'continueHint'>;

const en: WaitingMessages = {
  openApp: 'Open {app}',
  phoneInstruction: 'Verify yourself with {app} on this phone.',
  qrInstruction: 'Scan this QR code with {app} on your phone. Keep this page open.',
  qrLabel: 'QR code for {app}',
  copyLink: 'Copy the link instead',
  linkLabel: 'Link for {app}',
  noApp: "I don't have {app}",
  noAppHelp: 'Install {app} on your phone, then come back to this page: it waits for a few minutes.',
  continueHint: 'This page moves on by itself when the app is done; Continue checks at once.',
  progressTitle: 'Progress',
  done: 'Done',
  completed: '(completed)',
  stopped: 'The verification on the phone was stopped. Continue takes you back to the service.',
};

const sv: WaitingMessages = {
  openApp: 'Öppna {app}',
  phoneInstruction: 'Identifiera dig med {app} på den här telefonen.',
  qrInstruction: 'Skanna QR-koden med {app} på din telefon. Håll den här sidan öppen.',
  qrLabel: 'QR-kod för {app}',
  copyLink: 'Kopiera länken i stället',
  linkLabel: 'Länk för {app}',
  noApp: 'Jag har inte {app}',
  noAppHelp: 'Installera {app} på din telefon och kom sedan tillbaka till den här sidan: den väntar några minuter.',
  continueHint: 'Sidan går vidare av sig själv när appen är klar; Fortsätt kontrollerar direkt.',
  progressTitle: 'Förlopp',
  done: 'Klart',
  completed: '(klart)',
  stopped: 'Verifieringen på telefonen avbröts. Fortsätt tar dig tillbaka till tjänsten.',
};

export const WAITING_MESSAGES: Record<UiLocale, WaitingMessages> = {
  en_GB: en,
  sv_SE: sv,
  sv_FI: sv,
  nb_NO: {
    openApp: 'Åpne {app}',
    phoneInstruction: 'Bekreft identiteten din med {app} på denne telefonen.',
    qrInstruction: 'Skann QR-koden med {app} på telefonen. Hold denne siden åpen.',
    qrLabel: 'QR-kode for {app}',
    copyLink: 'Kopier lenken i stedet',
    linkLabel: 'Lenke for {app}',
    noApp: 'Jeg har ikke {app}',
    noAppHelp: 'Installer {app} på telefonen, og kom så tilbake til denne siden: den venter i noen minutter.',
    continueHint: 'Siden går videre av seg selv når appen er ferdig; Fortsett sjekker med en gang.',
    progressTitle: 'Fremdrift',
    done: 'Ferdig',
    completed: '(fullført)',
    stopped: 'Verifiseringen på telefonen ble stoppet. Fortsett tar deg tilbake til tjenesten.',
  },
  nn_NO: {
    openApp: 'Opne {app}',
    phoneInstruction: 'Stadfest identiteten din med {app} på denne telefonen.',
    qrInstruction: 'Skann QR-koden med {app} på telefonen. Hald denne sida open.',
    qrLabel: 'QR-kode for {app}',
    copyLink: 'Kopier lenkja i staden',
    linkLabel: 'Lenkje for {app}',
    noApp: 'Eg har ikkje {app}',
    noAppHelp: 'Installer {app} på telefonen, og kom så tilbake til denne sida: ho ventar i nokre minutt.',
    continueHint: 'Sida går vidare av seg sjølv når appen er ferdig; Hald fram sjekkar med ein gong.',
    progressTitle: 'Framdrift',
    done: 'Ferdig',
    completed: '(fullført)',
    stopped: 'Verifiseringa på telefonen vart stoppa. Hald fram tek deg tilbake til tenesta.',
  },
  da_DK: {
    openApp: 'Åbn {app}',
    phoneInstruction: 'Bekræft din identitet med {app} på denne telefon.',
    qrInstruction: 'Scan QR-koden med {app} på din telefon. Hold denne side åben.',
    qrLabel: 'QR-kode til {app}',
    copyLink: 'Kopiér linket i stedet',
    linkLabel: 'Link til {app}',
    noApp: 'Jeg har ikke {app}',
    noAppHelp: 'Installer {app} på din telefon, og kom så tilbage til denne side: den venter et par minutter.',
    continueHint: 'Siden fortsætter af sig selv, når appen er færdig; Fortsæt tjekker med det samme.',
    progressTitle: 'Forløb',
    done: 'Færdig',
    completed: '(gennemført)',
    stopped: 'Verifikationen på telefonen blev stoppet. Fortsæt fører dig tilbage til tjenesten.',
  },
  fi_FI: {
    openApp: 'Avaa {app}',
    phoneInstruction: 'Tunnistaudu tämän puhelimen {app} -sovelluksella.',
    qrInstruction: 'Skannaa QR-koodi puhelimesi {app} -sovelluksella. Pidä tämä sivu auki.',
    qrLabel: 'QR-koodi {app} -sovellukselle',
    copyLink: 'Kopioi linkki sen sijaan',
    linkLabel: 'Linkki {app} -sovellukseen',
    noApp: 'Minulla ei ole {app} -sovellusta',
    noAppHelp: 'Asenna {app} puhelimeesi ja palaa sitten tälle sivulle: se odottaa muutaman minuutin.',
    continueHint: 'Sivu jatkaa itsestään, kun sovellus on valmis; Jatka tarkistaa heti.',
    progressTitle: 'Eteneminen',
    done: 'Valmis',
    completed: '(valmis)',
    stopped: 'Varmennus puhelimessa keskeytettiin. Jatka vie sinut takaisin palveluun.',
  },
  et_EE: {
    openApp: 'Ava {app}',
    phoneInstruction: 'Tuvasta end selle telefoni rakendusega {app}.',
    qrInstruction: 'Skanni QR-kood oma telefoni rakendusega {app}. Hoia see leht avatuna.',
    qrLabel: 'Rakenduse {app} QR-kood',
    copyLink: 'Kopeeri hoopis link',
    linkLabel: 'Rakenduse {app} link',
    noApp: 'Mul pole rakendust {app}',
    noAppHelp: 'Paigalda {app} oma telefoni ja tule siis sellele lehele tagasi: leht ootab mõne minuti.',
    continueHint: 'Leht liigub ise edasi, kui rakendus on valmis; Jätka kontrollib kohe.',
    progressTitle: 'Edenemine',
    done: 'Valmis',
    completed: '(tehtud)',
    stopped: 'Tuvastamine telefonis peatati. Jätka viib sind tagasi teenusesse.',
  },
  lv_LV: {
    openApp: 'Atvērt {app}',
    phoneInstruction: 'Apliecinieties ar lietotni {app} šajā tālrunī.',
    qrInstruction: 'Noskenējiet QR kodu ar lietotni {app} savā tālrunī. Turiet šo lapu atvērtu.',
    qrLabel: 'QR kods lietotnei {app}',
    copyLink: 'Kopēt saiti',
    linkLabel: 'Saite uz lietotni {app}',
    noApp: 'Man nav lietotnes {app}',
    noAppHelp: 'Instalējiet {app} savā tālrunī un tad atgriezieties šajā lapā: tā gaidīs dažas minūtes.',
    continueHint: 'Lapa turpinās pati, kad lietotne būs pabeigusi; Turpināt pārbauda uzreiz.',
    progressTitle: 'Norise',
    done: 'Pabeigts',
    completed: '(izpildīts)',
    stopped: 'Pārbaude tālrunī tika apturēta. Turpināt jūs atgriezīs pakalpojumā.',
  },
  de_DE: {
    openApp: '{app} öffnen',
    phoneInstruction: 'Weisen Sie sich mit der App {app} auf diesem Telefon aus.',
    qrInstruction: 'Scannen Sie den QR-Code mit der App {app} auf Ihrem Telefon. Lassen Sie diese Seite geöffnet.',
    qrLabel: 'QR-Code für die App {app}',
    copyLink: 'Stattdessen den Link kopieren',
    linkLabel: 'Link für die App {app}',
    noApp: 'Ich habe {app} nicht',
    noAppHelp: 'Installieren Sie {app} auf Ihrem Telefon und kehren Sie dann zu dieser Seite zurück; die Seite wartet einige Minuten.',
    continueHint: 'Diese Seite geht von selbst weiter, wenn die App fertig ist; Weiter prüft sofort.',
    progressTitle: 'Fortschritt',
    done: 'Fertig',
    completed: '(erledigt)',
    stopped: 'Die Prüfung auf dem Telefon wurde beendet. Weiter führt Sie zurück zum Dienst.',
  },
  nl_NL: {
    openApp: 'Open {app}',
    phoneInstruction: 'Identificeer u met de app {app} op deze telefoon.',
    qrInstruction: 'Scan de QR-code met de app {app} op uw telefoon. Houd deze pagina open.',
    qrLabel: 'QR-code voor de app {app}',
    copyLink: 'Kopieer in plaats daarvan de link',
    linkLabel: 'Link voor de app {app}',
    noApp: 'Ik heb {app} niet',
    noAppHelp: 'Installeer {app} op uw telefoon en kom dan terug naar deze pagina: die wacht een paar minuten.',
    continueHint: 'Deze pagina gaat vanzelf verder als de app klaar is; Doorgaan controleert meteen.',
    progressTitle: 'Voortgang',
    done: 'Klaar',
    completed: '(voltooid)',
    stopped: 'De verificatie op de telefoon is gestopt. Doorgaan brengt u terug naar de dienst.',
  },
  fr_FR: {
    openApp: 'Ouvrir {app}',
    phoneInstruction: "Identifiez-vous avec l'application {app} de ce téléphone.",
    qrInstruction: "Scannez ce code QR avec l'application {app} de votre téléphone. Gardez cette page ouverte.",
    qrLabel: "Code QR pour l'application {app}",
    copyLink: 'Copier plutôt le lien',
    linkLabel: "Lien pour l'application {app}",
    noApp: "Je n'ai pas l'application {app}",
    noAppHelp: 'Installez {app} sur votre téléphone, puis revenez sur cette page : elle attend quelques minutes.',
    continueHint: "Cette page avance d'elle-même quand l'application a fini ; Continuer vérifie tout de suite.",
    progressTitle: 'Progression',
    done: 'Terminé',
    completed: '(fait)',
    stopped: 'La vérification sur le téléphone a été arrêtée. Continuer vous ramène au service.',
  },
};
