import type { UiLocale } from './locales.js';

/** The base URL's page (GET /): what the service is for a person who lands there, and where a developer starts. */
export interface LandingMessages {
  title: string;
  intro: string;
  forDevelopers: string;
  startHere: string;
  discovery: string;
  adminApi: string;
}

const SWEDISH: LandingMessages = {
  title: 'Identitetsbekräftelse',
  intro:
    'Den här tjänsten bekräftar vem du är för de tjänster som använder den. Du kommer hit från deras inloggning och går tillbaka till dem när du är klar; det finns inget att göra på den här sidan.',
  forDevelopers: 'För utvecklare',
  startHere: 'Var du börjar: tjänstens dokumentation',
  discovery: 'OpenID Connect-discoverydokument',
  adminApi: 'Admin-API (Swagger UI)',
};

export const LANDING_MESSAGES: Record<UiLocale, LandingMessages> = {
  en_GB: {
    title: 'Identity verification',
    intro:
      'This service confirms who you are to the services that use it. You arrive here from their sign-in and return to them when you are done; there is nothing to do on this page.',
    forDevelopers: 'For developers',
    startHere: 'Where to start: the service documentation',
    discovery: 'OpenID Connect discovery document',
    adminApi: 'Admin API (Swagger UI)',
  },
  nb_NO: {
    title: 'Identitetsbekreftelse',
    intro:
      'Denne tjenesten bekrefter hvem du er overfor tjenestene som bruker den. Du kommer hit fra innloggingen deres og går tilbake til dem når du er ferdig; det er ingenting å gjøre på denne siden.',
    forDevelopers: 'For utviklere',
    startHere: 'Hvor du begynner: tjenestens dokumentasjon',
    discovery: 'OpenID Connect-oppdagelsesdokument',
    adminApi: 'Admin-API (Swagger UI)',
  },
  nn_NO: {
    title: 'Identitetsstadfesting',
    intro:
      'Denne tenesta stadfestar kven du er overfor tenestene som brukar henne. Du kjem hit frå innlogginga deira og går tilbake til dei når du er ferdig; det er ingenting å gjere på denne sida.',
    forDevelopers: 'For utviklarar',
    startHere: 'Kvar du byrjar: dokumentasjonen til tenesta',
    discovery: 'OpenID Connect-oppdagingsdokument',
    adminApi: 'Admin-API (Swagger UI)',
  },
  da_DK: {
    title: 'Identitetsbekræftelse',
    intro:
      'Denne tjeneste bekræfter, hvem du er, over for de tjenester, der bruger den. Du kommer hertil fra deres login og vender tilbage til dem, når du er færdig; der er intet at gøre på denne side.',
    forDevelopers: 'For udviklere',
    startHere: 'Hvor du starter: tjenestens dokumentation',
    discovery: 'OpenID Connect-discoverydokument',
    adminApi: 'Admin-API (Swagger UI)',
  },
  sv_SE: SWEDISH,
  sv_FI: SWEDISH,
  fi_FI: {
    title: 'Henkilöllisyyden vahvistus',
    intro:
      'Tämä palvelu vahvistaa henkilöllisyytesi sitä käyttäville palveluille. Tulet tänne niiden kirjautumisesta ja palaat niihin, kun olet valmis; tällä sivulla ei ole tehtävää.',
    forDevelopers: 'Kehittäjille',
    startHere: 'Mistä aloittaa: palvelun dokumentaatio',
    discovery: 'OpenID Connect -discovery-dokumentti',
    adminApi: 'Hallinta-API (Swagger UI)',
  },
  et_EE: {
    title: 'Isikusamasuse kinnitamine',
    intro:
      'See teenus kinnitab teie isikut teenustele, mis seda kasutavad. Jõuate siia nende sisselogimisest ja naasete nende juurde, kui olete lõpetanud; sellel lehel pole midagi teha.',
    forDevelopers: 'Arendajatele',
    startHere: 'Kust alustada: teenuse dokumentatsioon',
    discovery: 'OpenID Connecti avastusdokument',
    adminApi: 'Haldus-API (Swagger UI)',
  },
  lv_LV: {
    title: 'Identitātes apliecināšana',
    intro:
      'Šis pakalpojums apliecina jūsu identitāti pakalpojumiem, kas to izmanto. Jūs šeit nonākat no to pieteikšanās un atgriežaties pie tiem, kad esat pabeiguši; šajā lapā nekas nav jādara.',
    forDevelopers: 'Izstrādātājiem',
    startHere: 'Kur sākt: pakalpojuma dokumentācija',
    discovery: 'OpenID Connect atklāšanas dokuments',
    adminApi: 'Administrēšanas API (Swagger UI)',
  },
  de_DE: {
    title: 'Identitätsprüfung',
    intro:
      'Dieser Dienst bestätigt Ihre Identität gegenüber den Diensten, die ihn nutzen. Sie kommen von deren Anmeldung hierher und kehren danach dorthin zurück; auf dieser Seite ist nichts zu tun.',
    forDevelopers: 'Für Entwickler',
    startHere: 'Wo Sie beginnen: die Dokumentation des Dienstes',
    discovery: 'OpenID-Connect-Discovery-Dokument',
    adminApi: 'Admin-API (Swagger UI)',
  },
  nl_NL: {
    title: 'Identiteitsbevestiging',
    intro:
      'Deze dienst bevestigt wie u bent voor de diensten die hem gebruiken. U komt hier vanuit hun inlogpagina en keert naar hen terug als u klaar bent; op deze pagina hoeft u niets te doen.',
    forDevelopers: 'Voor ontwikkelaars',
    startHere: 'Waar u begint: de documentatie van de dienst',
    discovery: 'OpenID Connect-discoverydocument',
    adminApi: 'Beheer-API (Swagger UI)',
  },
  fr_FR: {
    title: 'Vérification d’identité',
    intro:
      'Ce service confirme votre identité auprès des services qui l’utilisent. Vous arrivez ici depuis leur page de connexion et y retournez une fois terminé ; il n’y a rien à faire sur cette page.',
    forDevelopers: 'Pour les développeurs',
    startHere: 'Par où commencer : la documentation du service',
    discovery: 'Document de découverte OpenID Connect',
    adminApi: 'API d’administration (Swagger UI)',
  },
};
