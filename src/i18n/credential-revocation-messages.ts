import type { UiLocale } from './locales.js';

/** The person's revocation pages of the credential issuer (GET|POST /vci/revoke/:handle). */
export interface CredentialRevocationMessages {
  title: string;
  question: string;
  explanation: string;
  confirm: string;
  doneTitle: string;
  done: string;
  unknownTitle: string;
  unknown: string;
  formRejected: string;
}

export const CREDENTIAL_REVOCATION_MESSAGES: Record<UiLocale, CredentialRevocationMessages> = {
  en_GB: {
    title: 'Revoke your credentials',
    question: 'Revoke the credentials in your wallet?',
    explanation:
      'The identity credentials this service put in your digital wallet will stop being valid everywhere, for good, within a few minutes. You can get new ones by verifying your ID document again.',
    confirm: 'Revoke the credentials',
    doneTitle: 'Credentials revoked',
    done: 'Your credentials are revoked. Services that check them will see within a few minutes that they are no longer valid. You can delete them from your wallet.',
    unknownTitle: 'Nothing to revoke',
    unknown: 'This revocation link is unknown or has expired, or its credentials were already revoked.',
    formRejected: 'The form was not sent from this page, so nothing was revoked. Please open the revocation link again.',
  },
  nb_NO: {
    title: 'Trekk tilbake attestene dine',
    question: 'Vil du trekke tilbake attestene i lommeboken din?',
    explanation:
      'Identitetsattestene denne tjenesten la i den digitale lommeboken din, slutter å gjelde overalt, for godt, i løpet av noen minutter. Du kan få nye ved å verifisere ID-dokumentet ditt på nytt.',
    confirm: 'Trekk tilbake attestene',
    doneTitle: 'Attestene er trukket tilbake',
    done: 'Attestene dine er trukket tilbake. Tjenester som sjekker dem, ser i løpet av noen minutter at de ikke lenger er gyldige. Du kan slette dem fra lommeboken din.',
    unknownTitle: 'Ingenting å trekke tilbake',
    unknown: 'Denne lenken er ukjent eller utløpt, eller attestene er allerede trukket tilbake.',
    formRejected: 'Skjemaet ble ikke sendt fra denne siden, så ingenting ble trukket tilbake. Åpne lenken på nytt.',
  },
  nn_NO: {
    title: 'Trekk tilbake attestane dine',
    question: 'Vil du trekkje tilbake attestane i lommeboka di?',
    explanation:
      'Identitetsattestane denne tenesta la i den digitale lommeboka di, sluttar å gjelde overalt, for godt, i løpet av nokre minutt. Du kan få nye ved å verifisere ID-dokumentet ditt på nytt.',
    confirm: 'Trekk tilbake attestane',
    doneTitle: 'Attestane er trekte tilbake',
    done: 'Attestane dine er trekte tilbake. Tenester som sjekkar dei, ser i løpet av nokre minutt at dei ikkje lenger er gyldige. Du kan slette dei frå lommeboka di.',
    unknownTitle: 'Ingenting å trekkje tilbake',
    unknown: 'Denne lenkja er ukjend eller utgått, eller attestane er alt trekte tilbake.',
    formRejected: 'Skjemaet vart ikkje sendt frå denne sida, så ingenting vart trekt tilbake. Opne lenkja på nytt.',
  },
  da_DK: {
    title: 'Tilbagekald dine beviser',
    question: 'Vil du tilbagekalde beviserne i din tegnebog?',
    explanation:
      'De identitetsbeviser, som denne tjeneste lagde i din digitale tegnebog, holder op med at være gyldige overalt, for altid, inden for få minutter. Du kan få nye ved at verificere dit ID-dokument igen.',
    confirm: 'Tilbagekald beviserne',
    doneTitle: 'Beviserne er tilbagekaldt',
    done: 'Dine beviser er tilbagekaldt. Tjenester, der kontrollerer dem, vil inden for få minutter se, at de ikke længere er gyldige. Du kan slette dem fra din tegnebog.',
    unknownTitle: 'Intet at tilbagekalde',
    unknown: 'Dette link er ukendt eller udløbet, eller beviserne er allerede tilbagekaldt.',
    formRejected: 'Formularen blev ikke sendt fra denne side, så intet blev tilbagekaldt. Åbn linket igen.',
  },
  sv_SE: {
    title: 'Återkalla dina intyg',
    question: 'Vill du återkalla intygen i din plånbok?',
    explanation:
      'De identitetsintyg som den här tjänsten lade i din digitala plånbok slutar gälla överallt, för gott, inom några minuter. Du kan få nya genom att verifiera din ID-handling igen.',
    confirm: 'Återkalla intygen',
    doneTitle: 'Intygen är återkallade',
    done: 'Dina intyg är återkallade. Tjänster som kontrollerar dem ser inom några minuter att de inte längre är giltiga. Du kan ta bort dem från din plånbok.',
    unknownTitle: 'Inget att återkalla',
    unknown: 'Den här länken är okänd eller har gått ut, eller så är intygen redan återkallade.',
    formRejected: 'Formuläret skickades inte från den här sidan, så ingenting återkallades. Öppna länken igen.',
  },
  sv_FI: {
    title: 'Återkalla dina intyg',
    question: 'Vill du återkalla intygen i din plånbok?',
    explanation:
      'De identitetsintyg som den här tjänsten lade i din digitala plånbok slutar gälla överallt, för gott, inom några minuter. Du kan få nya genom att verifiera ditt identitetsdokument igen.',
    confirm: 'Återkalla intygen',
    doneTitle: 'Intygen är återkallade',
    done: 'Dina intyg är återkallade. Tjänster som kontrollerar dem ser inom några minuter att de inte längre är giltiga. Du kan ta bort dem från din plånbok.',
    unknownTitle: 'Inget att återkalla',
    unknown: 'Den här länken är okänd eller har gått ut, eller så är intygen redan återkallade.',
    formRejected: 'Formuläret skickades inte från den här sidan, så ingenting återkallades. Öppna länken igen.',
  },
  fi_FI: {
    title: 'Peruuta todisteesi',
    question: 'Peruutetaanko lompakossasi olevat todisteet?',
    explanation:
      'Tämän palvelun digitaaliseen lompakkoosi antamat henkilöllisyystodisteet lakkaavat olemasta voimassa kaikkialla ja pysyvästi muutaman minuutin kuluessa. Saat uudet todentamalla henkilöllisyysasiakirjasi uudelleen.',
    confirm: 'Peruuta todisteet',
    doneTitle: 'Todisteet on peruutettu',
    done: 'Todisteesi on peruutettu. Niitä tarkistavat palvelut näkevät muutaman minuutin kuluessa, etteivät ne ole enää voimassa. Voit poistaa ne lompakostasi.',
    unknownTitle: 'Ei peruutettavaa',
    unknown: 'Tämä peruutuslinkki on tuntematon tai vanhentunut, tai sen todisteet on jo peruutettu.',
    formRejected: 'Lomaketta ei lähetetty tältä sivulta, joten mitään ei peruutettu. Avaa peruutuslinkki uudelleen.',
  },
  et_EE: {
    title: 'Tühista oma tõendid',
    question: 'Kas tühistada sinu rahakotis olevad tõendid?',
    explanation:
      'Selle teenuse poolt sinu digitaalsesse rahakotti lisatud isikutõendid kaotavad kehtivuse kõikjal ja jäädavalt mõne minuti jooksul. Uued saad, kui kinnitad oma isikut tõendava dokumendi uuesti.',
    confirm: 'Tühista tõendid',
    doneTitle: 'Tõendid on tühistatud',
    done: 'Sinu tõendid on tühistatud. Neid kontrollivad teenused näevad mõne minuti jooksul, et need ei kehti enam. Võid need oma rahakotist kustutada.',
    unknownTitle: 'Pole midagi tühistada',
    unknown: 'See tühistamislink on tundmatu või aegunud või selle tõendid on juba tühistatud.',
    formRejected: 'Vormi ei saadetud sellelt lehelt, seega midagi ei tühistatud. Ava tühistamislink uuesti.',
  },
  lv_LV: {
    title: 'Atsaukt savus apliecinājumus',
    question: 'Vai atsaukt jūsu makā esošos apliecinājumus?',
    explanation:
      'Identitātes apliecinājumi, ko šis pakalpojums ievietoja jūsu digitālajā makā, dažu minūšu laikā pārstās būt derīgi visur un uz visiem laikiem. Jaunus varat saņemt, vēlreiz verificējot savu personu apliecinošo dokumentu.',
    confirm: 'Atsaukt apliecinājumus',
    doneTitle: 'Apliecinājumi atsaukti',
    done: 'Jūsu apliecinājumi ir atsaukti. Pakalpojumi, kas tos pārbauda, dažu minūšu laikā redzēs, ka tie vairs nav derīgi. Varat tos izdzēst no sava maka.',
    unknownTitle: 'Nav ko atsaukt',
    unknown: 'Šī atsaukšanas saite nav zināma vai ir novecojusi, vai arī tās apliecinājumi jau ir atsaukti.',
    formRejected: 'Veidlapa netika nosūtīta no šīs lapas, tāpēc nekas netika atsaukts. Lūdzu, atveriet atsaukšanas saiti vēlreiz.',
  },
  de_DE: {
    title: 'Ihre Nachweise widerrufen',
    question: 'Die Nachweise in Ihrer Wallet widerrufen?',
    explanation:
      'Die Identitätsnachweise, die dieser Dienst in Ihre digitale Wallet gelegt hat, werden innerhalb weniger Minuten überall und endgültig ungültig. Neue erhalten Sie, indem Sie Ihr Ausweisdokument erneut prüfen lassen.',
    confirm: 'Nachweise widerrufen',
    doneTitle: 'Nachweise widerrufen',
    done: 'Ihre Nachweise sind widerrufen. Dienste, die sie prüfen, sehen innerhalb weniger Minuten, dass sie nicht mehr gültig sind. Sie können sie aus Ihrer Wallet löschen.',
    unknownTitle: 'Nichts zu widerrufen',
    unknown: 'Dieser Widerrufslink ist unbekannt oder abgelaufen, oder seine Nachweise wurden bereits widerrufen.',
    formRejected: 'Das Formular wurde nicht von dieser Seite gesendet, daher wurde nichts widerrufen. Bitte öffnen Sie den Widerrufslink erneut.',
  },
  nl_NL: {
    title: 'Uw bewijzen intrekken',
    question: 'De bewijzen in uw wallet intrekken?',
    explanation:
      'De identiteitsbewijzen die deze dienst in uw digitale wallet heeft gezet, worden binnen enkele minuten overal en definitief ongeldig. U kunt nieuwe krijgen door uw identiteitsdocument opnieuw te laten verifiëren.',
    confirm: 'Bewijzen intrekken',
    doneTitle: 'Bewijzen ingetrokken',
    done: 'Uw bewijzen zijn ingetrokken. Diensten die ze controleren, zien binnen enkele minuten dat ze niet meer geldig zijn. U kunt ze uit uw wallet verwijderen.',
    unknownTitle: 'Niets om in te trekken',
    unknown: 'Deze intrekkingslink is onbekend of verlopen, of de bewijzen zijn al ingetrokken.',
    formRejected: 'Het formulier is niet vanaf deze pagina verstuurd, dus er is niets ingetrokken. Open de intrekkingslink opnieuw.',
  },
  fr_FR: {
    title: 'Révoquer vos attestations',
    question: 'Révoquer les attestations de votre portefeuille ?',
    explanation:
      "Les attestations d'identité que ce service a placées dans votre portefeuille numérique cesseront d'être valides partout, définitivement, d'ici quelques minutes. Vous pouvez en obtenir de nouvelles en faisant vérifier à nouveau votre pièce d'identité.",
    confirm: 'Révoquer les attestations',
    doneTitle: 'Attestations révoquées',
    done: "Vos attestations sont révoquées. Les services qui les vérifient verront d'ici quelques minutes qu'elles ne sont plus valides. Vous pouvez les supprimer de votre portefeuille.",
    unknownTitle: 'Rien à révoquer',
    unknown: 'Ce lien de révocation est inconnu ou a expiré, ou ses attestations ont déjà été révoquées.',
    formRejected: "Le formulaire n'a pas été envoyé depuis cette page, donc rien n'a été révoqué. Veuillez rouvrir le lien de révocation.",
  },
};
