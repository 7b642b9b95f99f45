import type { UiLocale } from './locales.js';

/**
 * What an error code means to the person in front of the page. The engine's and our own error
 * descriptions are technical English for the merchant's developers; the page shows one of these
 * sentences instead and keeps the code and the request id for support.
 */
type Kind = 'expired' | 'form' | 'method' | 'service' | 'denied' | 'server' | 'busy';

const KIND_OF_CODE: Record<string, Kind> = {
  interaction_expired: 'expired',
  saml_transaction_expired: 'expired',
  csrf_rejected: 'form',
  unsupported_media_type: 'form',
  unknown_eid_scheme: 'method',
  access_denied: 'denied',
  login_required: 'denied',
  server_error: 'server',
  temporarily_unavailable: 'server',
  // A rate limit (src/ops): the person can do something about it, by waiting.
  too_many_requests: 'busy',
};

/** Every other code (invalid_request, invalid_client, invalid_redirect_uri, invalid_request_uri…) is the service's request. */
export function errorKind(code: string): Kind {
  return KIND_OF_CODE[code] ?? 'service';
}

/**
 * `getHelp` links the operator's contact (OPERATOR_CONTACT_URL) and `aboutService` the base URL's page: the way out of
 * an error page when the service to go back to is unknown (an unknown client_id) or the person cannot find it.
 */
type Texts = Record<Kind, string> & { errorCode: string; technicalDetails: string; getHelp: string; aboutService: string };

const en: Texts = {
  expired: 'This sign-in has expired or was already finished.',
  form: 'The form was not sent from this sign-in page, so nothing was done.',
  method: 'This identification method is not available for this service.',
  service: 'The service asked for a sign-in in a way we cannot accept.',
  denied: 'The sign-in was cancelled or could not be completed.',
  server: 'A problem on our side stopped the sign-in. Please try again in a moment.',
  busy: 'Too many sign-in attempts came from here in a short time. Please wait a minute and try again.',
  errorCode: 'Error code',
  technicalDetails: 'Technical details (in English, for the service)',
  getHelp: 'Get help with signing in',
  aboutService: 'About this sign-in service',
};

const sv: Texts = {
  expired: 'Inloggningen har gått ut eller är redan avslutad.',
  form: 'Formuläret skickades inte från den här inloggningssidan, så ingenting gjordes.',
  method: 'Den här identifieringsmetoden är inte tillgänglig för tjänsten.',
  service: 'Tjänsten begärde inloggningen på ett sätt som vi inte kan godta.',
  denied: 'Inloggningen avbröts eller kunde inte slutföras.',
  server: 'Ett problem hos oss stoppade inloggningen. Försök igen om en stund.',
  busy: 'För många inloggningsförsök kom härifrån på kort tid. Vänta en minut och försök igen.',
  errorCode: 'Felkod',
  technicalDetails: 'Tekniska detaljer (på engelska, för tjänsten)',
  getHelp: 'Få hjälp med inloggningen',
  aboutService: 'Om den här inloggningstjänsten',
};

export const ERROR_MESSAGES: Record<UiLocale, Texts> = {
  en_GB: en,
  sv_SE: sv,
  sv_FI: sv,
  nb_NO: {
    expired: 'Innloggingen er utløpt eller allerede fullført.',
    form: 'Skjemaet ble ikke sendt fra denne innloggingssiden, så ingenting ble gjort.',
    method: 'Denne identifiseringsmetoden er ikke tilgjengelig for tjenesten.',
    service: 'Tjenesten ba om innloggingen på en måte vi ikke kan godta.',
    denied: 'Innloggingen ble avbrutt eller kunne ikke fullføres.',
    server: 'Et problem hos oss stoppet innloggingen. Prøv igjen om litt.',
    busy: 'For mange innloggingsforsøk kom herfra på kort tid. Vent et minutt og prøv igjen.',
    errorCode: 'Feilkode',
    technicalDetails: 'Tekniske detaljer (på engelsk, for tjenesten)',
    getHelp: 'Få hjelp med innloggingen',
    aboutService: 'Om denne innloggingstjenesten',
  },
  nn_NO: {
    expired: 'Innlogginga har gått ut eller er allereie fullført.',
    form: 'Skjemaet vart ikkje sendt frå denne innloggingssida, så ingenting vart gjort.',
    method: 'Denne identifiseringsmetoden er ikkje tilgjengeleg for tenesta.',
    service: 'Tenesta bad om innlogginga på ein måte vi ikkje kan godta.',
    denied: 'Innlogginga vart avbroten eller kunne ikkje fullførast.',
    server: 'Eit problem hos oss stoppa innlogginga. Prøv igjen om litt.',
    busy: 'For mange innloggingsforsøk kom herifrå på kort tid. Vent eit minutt og prøv igjen.',
    errorCode: 'Feilkode',
    technicalDetails: 'Tekniske detaljar (på engelsk, for tenesta)',
    getHelp: 'Få hjelp med innlogginga',
    aboutService: 'Om denne innloggingstenesta',
  },
  da_DK: {
    expired: 'Login er udløbet eller allerede afsluttet.',
    form: 'Formularen blev ikke sendt fra denne login-side, så intet blev gjort.',
    method: 'Denne identifikationsmetode er ikke tilgængelig for tjenesten.',
    service: 'Tjenesten bad om login på en måde, vi ikke kan acceptere.',
    denied: 'Login blev annulleret eller kunne ikke gennemføres.',
    server: 'Et problem hos os stoppede login. Prøv igen om lidt.',
    busy: 'For mange loginforsøg kom herfra på kort tid. Vent et minut, og prøv igen.',
    errorCode: 'Fejlkode',
    technicalDetails: 'Tekniske detaljer (på engelsk, til tjenesten)',
    getHelp: 'Få hjælp til login',
    aboutService: 'Om denne login-tjeneste',
  },
  fi_FI: {
    expired: 'Kirjautuminen on vanhentunut tai jo päättynyt.',
    form: 'Lomaketta ei lähetetty tältä kirjautumissivulta, joten mitään ei tehty.',
    method: 'Tämä tunnistautumistapa ei ole käytettävissä tässä palvelussa.',
    service: 'Palvelu pyysi kirjautumista tavalla, jota emme voi hyväksyä.',
    denied: 'Kirjautuminen peruttiin tai sitä ei voitu suorittaa loppuun.',
    server: 'Meidän päämme ongelma keskeytti kirjautumisen. Yritä hetken kuluttua uudelleen.',
    busy: 'Täältä tuli lyhyessä ajassa liian monta kirjautumisyritystä. Odota minuutti ja yritä uudelleen.',
    errorCode: 'Virhekoodi',
    technicalDetails: 'Tekniset tiedot (englanniksi, palvelulle)',
    getHelp: 'Pyydä apua kirjautumiseen',
    aboutService: 'Tietoa tästä kirjautumispalvelusta',
  },
  et_EE: {
    expired: 'Sisselogimine on aegunud või juba lõpetatud.',
    form: 'Vormi ei saadetud sellelt sisselogimislehelt, seega midagi ei tehtud.',
    method: 'See tuvastamisviis pole selle teenuse jaoks saadaval.',
    service: 'Teenus küsis sisselogimist viisil, mida me ei saa vastu võtta.',
    denied: 'Sisselogimine tühistati või seda ei õnnestunud lõpetada.',
    server: 'Meie poolne probleem peatas sisselogimise. Proovi mõne aja pärast uuesti.',
    busy: 'Siit tuli lühikese aja jooksul liiga palju sisselogimiskatseid. Oota minut ja proovi uuesti.',
    errorCode: 'Veakood',
    technicalDetails: 'Tehnilised üksikasjad (inglise keeles, teenusele)',
    getHelp: 'Küsi abi sisselogimiseks',
    aboutService: 'Teave selle sisselogimisteenuse kohta',
  },
  lv_LV: {
    expired: 'Pieteikšanās ir beigusies vai jau pabeigta.',
    form: 'Veidlapa netika nosūtīta no šīs pieteikšanās lapas, tāpēc nekas netika darīts.',
    method: 'Šī identifikācijas metode šim pakalpojumam nav pieejama.',
    service: 'Pakalpojums pieprasīja pieteikšanos veidā, ko mēs nevaram pieņemt.',
    denied: 'Pieteikšanās tika atcelta vai to nevarēja pabeigt.',
    server: 'Problēma mūsu pusē apturēja pieteikšanos. Lūdzu, mēģiniet vēlreiz pēc brīža.',
    busy: 'No šejienes īsā laikā bija pārāk daudz pieteikšanās mēģinājumu. Lūdzu, uzgaidiet minūti un mēģiniet vēlreiz.',
    errorCode: 'Kļūdas kods',
    technicalDetails: 'Tehniskā informācija (angļu valodā, pakalpojumam)',
    getHelp: 'Saņemt palīdzību pierakstīšanās jautājumā',
    aboutService: 'Par šo pierakstīšanās pakalpojumu',
  },
  de_DE: {
    expired: 'Die Anmeldung ist abgelaufen oder bereits abgeschlossen.',
    form: 'Das Formular wurde nicht von dieser Anmeldeseite gesendet, daher wurde nichts ausgeführt.',
    method: 'Diese Identifizierungsmethode ist für diesen Dienst nicht verfügbar.',
    service: 'Der Dienst hat die Anmeldung auf eine Weise angefordert, die wir nicht annehmen können.',
    denied: 'Die Anmeldung wurde abgebrochen oder konnte nicht abgeschlossen werden.',
    server: 'Ein Problem auf unserer Seite hat die Anmeldung gestoppt. Bitte versuchen Sie es gleich noch einmal.',
    busy: 'Von hier kamen in kurzer Zeit zu viele Anmeldeversuche. Bitte warten Sie eine Minute und versuchen Sie es erneut.',
    errorCode: 'Fehlercode',
    technicalDetails: 'Technische Details (auf Englisch, für den Dienst)',
    getHelp: 'Hilfe bei der Anmeldung erhalten',
    aboutService: 'Über diesen Anmeldedienst',
  },
  nl_NL: {
    expired: 'Het inloggen is verlopen of al afgerond.',
    form: 'Het formulier is niet vanaf deze inlogpagina verstuurd, dus er is niets gedaan.',
    method: 'Deze identificatiemethode is niet beschikbaar voor deze dienst.',
    service: 'De dienst vroeg het inloggen aan op een manier die wij niet kunnen accepteren.',
    denied: 'Het inloggen is geannuleerd of kon niet worden afgerond.',
    server: 'Een probleem aan onze kant heeft het inloggen gestopt. Probeer het zo opnieuw.',
    busy: 'Er kwamen hiervandaan in korte tijd te veel inlogpogingen. Wacht een minuut en probeer het opnieuw.',
    errorCode: 'Foutcode',
    technicalDetails: 'Technische details (in het Engels, voor de dienst)',
    getHelp: 'Hulp krijgen bij het inloggen',
    aboutService: 'Over deze inlogdienst',
  },
  fr_FR: {
    expired: 'Cette connexion a expiré ou est déjà terminée.',
    form: "Le formulaire n'a pas été envoyé depuis cette page de connexion ; rien n'a été fait.",
    method: "Cette méthode d'identification n'est pas disponible pour ce service.",
    service: "Le service a demandé la connexion d'une manière que nous ne pouvons pas accepter.",
    denied: "La connexion a été annulée ou n'a pas pu aboutir.",
    server: 'Un problème de notre côté a interrompu la connexion. Veuillez réessayer dans un instant.',
    busy: "Trop de tentatives de connexion sont venues d'ici en peu de temps. Veuillez patienter une minute et réessayer.",
    errorCode: "Code d'erreur",
    technicalDetails: 'Détails techniques (en anglais, pour le service)',
    getHelp: 'Obtenir de l’aide pour la connexion',
    aboutService: 'À propos de ce service de connexion',
  },
};
