import type { UiLocale } from './locales.js';

/** The verifier's waiting page: the hand-off to the ID app and the steps the phone reports as it goes. */
export interface WaitingMessages {
  openApp: string;
  phoneInstruction: string;
  qrInstruction: string;
  qrLabel: string;
  copyLink: string;
  linkLabel: string;
  continueHint: string;
  progressTitle: string;
  phone_connected: string;
  document_read: string;
  face_checked: string;
  done: string;
  completed: string;
  stopped: string;
}

/**
 * The hand-off texts of a waiting page, for a scheme whose other device is not the ID app (a wallet): the button
 * that opens it on this device, what to do with the QR code, and the name of its one step before done.
 */
export type WaitingTexts = Pick<WaitingMessages, 'openApp' | 'phoneInstruction' | 'qrInstruction' | 'qrLabel' | 'linkLabel' | 'phone_connected'>;

const en: WaitingMessages = {
  openApp: 'Open the ID app',
  phoneInstruction: 'Verify yourself with the ID app on this phone.',
  qrInstruction: 'Scan this QR code with the ID app on your phone. Keep this page open.',
  qrLabel: 'QR code for the ID app',
  copyLink: 'Copy the link instead',
  linkLabel: 'Link for the ID app',
  continueHint: 'This page moves on by itself when the app is done; Continue checks at once.',
  progressTitle: 'Progress',
  phone_connected: 'Phone connected',
  document_read: 'Document read',
  face_checked: 'Face checked',
  done: 'Done',
  completed: '(completed)',
  stopped: 'The verification on the phone was stopped. Continue takes you back to the service.',
};

const sv: WaitingMessages = {
  openApp: 'Öppna ID-appen',
  phoneInstruction: 'Identifiera dig med ID-appen på den här telefonen.',
  qrInstruction: 'Skanna QR-koden med ID-appen på din telefon. Håll den här sidan öppen.',
  qrLabel: 'QR-kod för ID-appen',
  copyLink: 'Kopiera länken i stället',
  linkLabel: 'Länk för ID-appen',
  continueHint: 'Sidan går vidare av sig själv när appen är klar; Fortsätt kontrollerar direkt.',
  progressTitle: 'Förlopp',
  phone_connected: 'Telefonen ansluten',
  document_read: 'Handlingen läst',
  face_checked: 'Ansiktet kontrollerat',
  done: 'Klart',
  completed: '(klart)',
  stopped: 'Verifieringen på telefonen avbröts. Fortsätt tar dig tillbaka till tjänsten.',
};

export const WAITING_MESSAGES: Record<UiLocale, WaitingMessages> = {
  en_GB: en,
  sv_SE: sv,
  sv_FI: sv,
  nb_NO: {
    openApp: 'Åpne ID-appen',
    phoneInstruction: 'Bekreft identiteten din med ID-appen på denne telefonen.',
    qrInstruction: 'Skann QR-koden med ID-appen på telefonen. Hold denne siden åpen.',
    qrLabel: 'QR-kode for ID-appen',
    copyLink: 'Kopier lenken i stedet',
    linkLabel: 'Lenke for ID-appen',
    continueHint: 'Siden går videre av seg selv når appen er ferdig; Fortsett sjekker med en gang.',
    progressTitle: 'Fremdrift',
    phone_connected: 'Telefonen er tilkoblet',
    document_read: 'Dokumentet er lest',
    face_checked: 'Ansiktet er kontrollert',
    done: 'Ferdig',
    completed: '(fullført)',
    stopped: 'Verifiseringen på telefonen ble stoppet. Fortsett tar deg tilbake til tjenesten.',
  },
  nn_NO: {
    openApp: 'Opne ID-appen',
    phoneInstruction: 'Stadfest identiteten din med ID-appen på denne telefonen.',
    qrInstruction: 'Skann QR-koden med ID-appen på telefonen. Hald denne sida open.',
    qrLabel: 'QR-kode for ID-appen',
    copyLink: 'Kopier lenkja i staden',
    linkLabel: 'Lenkje for ID-appen',
    continueHint: 'Sida går vidare av seg sjølv når appen er ferdig; Hald fram sjekkar med ein gong.',
    progressTitle: 'Framdrift',
    phone_connected: 'Telefonen er kopla til',
    document_read: 'Dokumentet er lese',
    face_checked: 'Andletet er kontrollert',
    done: 'Ferdig',
    completed: '(fullført)',
    stopped: 'Verifiseringa på telefonen vart stoppa. Hald fram tek deg tilbake til tenesta.',
  },
  da_DK: {
    openApp: 'Åbn ID-appen',
    phoneInstruction: 'Bekræft din identitet med ID-appen på denne telefon.',
    qrInstruction: 'Scan QR-koden med ID-appen på din telefon. Hold denne side åben.',
    qrLabel: 'QR-kode til ID-appen',
    copyLink: 'Kopiér linket i stedet',
    linkLabel: 'Link til ID-appen',
    continueHint: 'Siden fortsætter af sig selv, når appen er færdig; Fortsæt tjekker med det samme.',
    progressTitle: 'Forløb',
    phone_connected: 'Telefonen er forbundet',
    document_read: 'Dokumentet er læst',
    face_checked: 'Ansigtet er kontrolleret',
    done: 'Færdig',
    completed: '(gennemført)',
    stopped: 'Verifikationen på telefonen blev stoppet. Fortsæt fører dig tilbage til tjenesten.',
  },
  fi_FI: {
    openApp: 'Avaa henkilöllisyyssovellus',
    phoneInstruction: 'Tunnistaudu tämän puhelimen henkilöllisyyssovelluksella.',
    qrInstruction: 'Skannaa QR-koodi puhelimesi henkilöllisyyssovelluksella. Pidä tämä sivu auki.',
    qrLabel: 'QR-koodi henkilöllisyyssovellukselle',
    copyLink: 'Kopioi linkki sen sijaan',
    linkLabel: 'Linkki henkilöllisyyssovellukseen',
    continueHint: 'Sivu jatkaa itsestään, kun sovellus on valmis; Jatka tarkistaa heti.',
    progressTitle: 'Eteneminen',
    phone_connected: 'Puhelin yhdistetty',
    document_read: 'Asiakirja luettu',
    face_checked: 'Kasvot tarkistettu',
    done: 'Valmis',
    completed: '(valmis)',
    stopped: 'Varmennus puhelimessa keskeytettiin. Jatka vie sinut takaisin palveluun.',
  },
  et_EE: {
    openApp: 'Ava ID-rakendus',
    phoneInstruction: 'Tuvasta end selle telefoni ID-rakendusega.',
    qrInstruction: 'Skanni QR-kood oma telefoni ID-rakendusega. Hoia see leht avatuna.',
    qrLabel: 'ID-rakenduse QR-kood',
    copyLink: 'Kopeeri hoopis link',
    linkLabel: 'ID-rakenduse link',
    continueHint: 'Leht liigub ise edasi, kui rakendus on valmis; Jätka kontrollib kohe.',
    progressTitle: 'Edenemine',
    phone_connected: 'Telefon ühendatud',
    document_read: 'Dokument loetud',
    face_checked: 'Nägu kontrollitud',
    done: 'Valmis',
    completed: '(tehtud)',
    stopped: 'Tuvastamine telefonis peatati. Jätka viib sind tagasi teenusesse.',
  },
  lv_LV: {
    openApp: 'Atvērt ID lietotni',
    phoneInstruction: 'Apliecinieties ar ID lietotni šajā tālrunī.',
    qrInstruction: 'Noskenējiet QR kodu ar ID lietotni savā tālrunī. Turiet šo lapu atvērtu.',
    qrLabel: 'QR kods ID lietotnei',
    copyLink: 'Kopēt saiti',
    linkLabel: 'Saite uz ID lietotni',
    continueHint: 'Lapa turpinās pati, kad lietotne būs pabeigusi; Turpināt pārbauda uzreiz.',
    progressTitle: 'Norise',
    phone_connected: 'Tālrunis pievienots',
    document_read: 'Dokuments nolasīts',
    face_checked: 'Seja pārbaudīta',
    done: 'Pabeigts',
    completed: '(izpildīts)',
    stopped: 'Pārbaude tālrunī tika apturēta. Turpināt jūs atgriezīs pakalpojumā.',
  },
  de_DE: {
    openApp: 'Ausweis-App öffnen',
    phoneInstruction: 'Weisen Sie sich mit der Ausweis-App auf diesem Telefon aus.',
    qrInstruction: 'Scannen Sie den QR-Code mit der Ausweis-App auf Ihrem Telefon. Lassen Sie diese Seite geöffnet.',
    qrLabel: 'QR-Code für die Ausweis-App',
    copyLink: 'Stattdessen den Link kopieren',
    linkLabel: 'Link für die Ausweis-App',
    continueHint: 'Diese Seite geht von selbst weiter, wenn die App fertig ist; Weiter prüft sofort.',
    progressTitle: 'Fortschritt',
    phone_connected: 'Telefon verbunden',
    document_read: 'Dokument gelesen',
    face_checked: 'Gesicht geprüft',
    done: 'Fertig',
    completed: '(erledigt)',
    stopped: 'Die Prüfung auf dem Telefon wurde beendet. Weiter führt Sie zurück zum Dienst.',
  },
  nl_NL: {
    openApp: 'Open de ID-app',
    phoneInstruction: 'Identificeer u met de ID-app op deze telefoon.',
    qrInstruction: 'Scan de QR-code met de ID-app op uw telefoon. Houd deze pagina open.',
    qrLabel: 'QR-code voor de ID-app',
    copyLink: 'Kopieer in plaats daarvan de link',
    linkLabel: 'Link voor de ID-app',
    continueHint: 'Deze pagina gaat vanzelf verder als de app klaar is; Doorgaan controleert meteen.',
    progressTitle: 'Voortgang',
    phone_connected: 'Telefoon verbonden',
    document_read: 'Document gelezen',
    face_checked: 'Gezicht gecontroleerd',
    done: 'Klaar',
    completed: '(voltooid)',
    stopped: 'De verificatie op de telefoon is gestopt. Doorgaan brengt u terug naar de dienst.',
  },
  fr_FR: {
    openApp: "Ouvrir l'application d'identité",
    phoneInstruction: "Identifiez-vous avec l'application d'identité de ce téléphone.",
    qrInstruction: "Scannez ce code QR avec l'application d'identité de votre téléphone. Gardez cette page ouverte.",
    qrLabel: "Code QR pour l'application d'identité",
    copyLink: 'Copier plutôt le lien',
    linkLabel: "Lien pour l'application d'identité",
    continueHint: "Cette page avance d'elle-même quand l'application a fini ; Continuer vérifie tout de suite.",
    progressTitle: 'Progression',
    phone_connected: 'Téléphone connecté',
    document_read: 'Document lu',
    face_checked: 'Visage vérifié',
    done: 'Terminé',
    completed: '(fait)',
    stopped: 'La vérification sur le téléphone a été arrêtée. Continuer vous ramène au service.',
  },
};
