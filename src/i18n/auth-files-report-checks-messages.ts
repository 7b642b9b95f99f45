import type { ReportLocale } from './auth-files-report-messages.js';

/** The checks of a verification, one line each on the evidence report (report-checks.ts decides their outcomes). */
export type ReportCheckId =
  | 'documentSignature'
  | 'signerChain'
  | 'revocationList'
  | 'dataGroupHashes'
  | 'cloneDetection'
  | 'documentType'
  | 'documentValidity'
  | 'faceMatch'
  | 'liveness';
export type ReportCheckOutcome = 'passed' | 'failed' | 'notPerformed' | 'noneOffered' | 'warning';
export type CloneDetectionMethod = 'active-authentication' | 'chip-authentication' | 'none';

/**
 * Texts of the report's provenance (issuer, merchant, test and specimen marks, signature) and of its checks. Kept
 * apart from auth-files-report-messages.ts (labels of the layout and attributes) so each file stays one job.
 */
export interface ReportCheckMessages {
  issuedBy: string;
  merchant: string;
  /** On every page of a report made in customer-test. */
  testMark: string;
  /** On every page of a report of a specimen document. */
  specimenMark: string;
  checks: string;
  labels: Record<ReportCheckId, string>;
  outcomes: Record<ReportCheckOutcome, string>;
  methods: Record<Exclude<CloneDetectionMethod, 'none'>, string>;
  /** Why clone detection was not possible. */
  chipOffersNone: string;
  /** Why the face checks did not run. */
  chipFailedFirst: string;
  noFace: string;
  /** The country's CRL: {date} the nextUpdate it missed; past it plus the grace, within the grace; none loaded. */
  crlOutdated: string;
  crlInGrace: string;
  noCrl: string;
  /** {level}, {n}: one in n impostors accepted at this level (spec 2.2). */
  levelFar: string;
  /**
   * Above the validated levels the rate is a model's, and the line says so itself: {level}, {n} the model's one in n,
   * {m} the measured bound of {max}, the highest validated level. Without any validated level, the second form.
   */
  levelFarModelled: string;
  levelFarModelledUnmeasured: string;
  /** {level} the face match level, {max} the highest level the calibration data validates. */
  extrapolated: string;
  /** In the page's text above the visible signature: {signer} the certificate's name. */
  signedLine: string;
}

const en: ReportCheckMessages = {
  issuedBy: 'Issued by',
  merchant: 'For merchant',
  testMark: 'TEST ONLY – made in a test environment, not evidence of anyone’s identity',
  specimenMark: 'SPECIMEN DOCUMENT – not a genuine identity document',
  checks: 'Checks',
  labels: {
    documentSignature: 'Document signature',
    signerChain: 'Country signer chain',
    revocationList: 'Revocation list (CRL) current',
    dataGroupHashes: 'Data group hashes',
    cloneDetection: 'Clone detection',
    documentType: 'Document type accepted',
    documentValidity: 'Document not expired',
    faceMatch: 'Face match level',
    liveness: 'Liveness and presentation-attack checks',
  },
  outcomes: { passed: 'Passed', failed: 'Failed', notPerformed: 'Not performed', noneOffered: 'Not possible', warning: 'Passed with a warning' },
  methods: { 'active-authentication': 'Active Authentication', 'chip-authentication': 'Chip Authentication' },
  chipOffersNone: 'the chip offers none',
  chipFailedFirst: 'the chip checks failed first',
  noFace: 'no usable face found',
  crlOutdated: 'the country’s revocation list was due for renewal on {date}: revocations published since then are not known',
  crlInGrace: 'the country’s revocation list was due for renewal on {date} (within the grace period allowed for late publication)',
  noCrl: 'no revocation list is loaded for this country',
  levelFar: 'level {level}, false acceptance rate at most 1 in {n}',
  levelFarModelled: 'level {level}, false acceptance rate 1 in {n} by a model, not measured; measured: at most 1 in {m} (level {max})',
  levelFarModelledUnmeasured: 'level {level}, false acceptance rate 1 in {n} by a model, not measured',
  extrapolated:
    'Level {level} is above what the calibration data validates (levels up to {max}): its false acceptance rate is extrapolated from a model of the measured scores, not measured.',
  signedLine: 'This document is electronically signed by {signer} (PAdES). A PDF reader’s signature panel shows whether the signature is valid.',
};

const nb: ReportCheckMessages = {
  issuedBy: 'Utstedt av',
  merchant: 'For virksomhet',
  testMark: 'KUN TEST – laget i et testmiljø, ikke bevis for noens identitet',
  specimenMark: 'PRØVEDOKUMENT – ikke et ekte identitetsdokument',
  checks: 'Kontroller',
  labels: {
    documentSignature: 'Dokumentets signatur',
    signerChain: 'Landets sertifikatkjede',
    revocationList: 'Sperreliste (CRL) gjeldende',
    dataGroupHashes: 'Hashverdier for datagrupper',
    cloneDetection: 'Kloningskontroll',
    documentType: 'Dokumenttype godtatt',
    documentValidity: 'Dokumentet er ikke utløpt',
    faceMatch: 'Nivå for ansiktssamsvar',
    liveness: 'Kontroll av levende person og presentasjonsangrep',
  },
  outcomes: { passed: 'Godkjent', failed: 'Ikke godkjent', notPerformed: 'Ikke utført', noneOffered: 'Ikke mulig', warning: 'Godkjent med advarsel' },
  methods: { 'active-authentication': 'Active Authentication', 'chip-authentication': 'Chip Authentication' },
  chipOffersNone: 'brikken tilbyr ingen',
  chipFailedFirst: 'kontrollene av brikken feilet først',
  noFace: 'fant ikke et brukbart ansikt',
  crlOutdated: 'landets sperreliste skulle vært fornyet {date}: sperringer publisert etter det er ikke kjent',
  crlInGrace: 'landets sperreliste skulle vært fornyet {date} (innenfor fristen som tillates for sen publisering)',
  noCrl: 'ingen sperreliste er lastet inn for dette landet',
  levelFar: 'nivå {level}, falsk aksept høyst 1 av {n}',
  levelFarModelled: 'nivå {level}, falsk aksept 1 av {n} etter en modell, ikke målt; målt: høyst 1 av {m} (nivå {max})',
  levelFarModelledUnmeasured: 'nivå {level}, falsk aksept 1 av {n} etter en modell, ikke målt',
  extrapolated:
    'Nivå {level} ligger over det kalibreringsdataene validerer (nivå til og med {max}): andelen falsk aksept er ekstrapolert fra en modell av de målte verdiene, ikke målt.',
  signedLine: 'Dette dokumentet er elektronisk signert av {signer} (PAdES). Signaturpanelet i en PDF-leser viser om signaturen er gyldig.',
};

const nn: ReportCheckMessages = {
  issuedBy: 'Skriven ut av',
  merchant: 'For verksemd',
  testMark: 'BERRE TEST – laga i eit testmiljø, ikkje prov på identiteten til nokon',
  specimenMark: 'PRØVEDOKUMENT – ikkje eit ekte identitetsdokument',
  checks: 'Kontrollar',
  labels: {
    documentSignature: 'Signaturen til dokumentet',
    signerChain: 'Sertifikatkjeda til landet',
    revocationList: 'Sperreliste (CRL) gjeldande',
    dataGroupHashes: 'Hashverdiar for datagrupper',
    cloneDetection: 'Kloningskontroll',
    documentType: 'Dokumenttype godteken',
    documentValidity: 'Dokumentet er ikkje utgått',
    faceMatch: 'Nivå for ansiktssamsvar',
    liveness: 'Kontroll av levande person og presentasjonsåtak',
  },
  outcomes: { passed: 'Godkjend', failed: 'Ikkje godkjend', notPerformed: 'Ikkje utført', noneOffered: 'Ikkje mogleg', warning: 'Godkjend med åtvaring' },
  methods: { 'active-authentication': 'Active Authentication', 'chip-authentication': 'Chip Authentication' },
  chipOffersNone: 'brikka tilbyr ingen',
  chipFailedFirst: 'kontrollane av brikka feila først',
  noFace: 'fann ikkje eit brukande ansikt',
  crlOutdated: 'sperrelista til landet skulle vore fornya {date}: sperringar publiserte etter det er ikkje kjende',
  crlInGrace: 'sperrelista til landet skulle vore fornya {date} (innanfor fristen som er tillaten for sein publisering)',
  noCrl: 'inga sperreliste er lasta inn for dette landet',
  levelFar: 'nivå {level}, falsk aksept høgst 1 av {n}',
  levelFarModelled: 'nivå {level}, falsk aksept 1 av {n} etter ein modell, ikkje målt; målt: høgst 1 av {m} (nivå {max})',
  levelFarModelledUnmeasured: 'nivå {level}, falsk aksept 1 av {n} etter ein modell, ikkje målt',
  extrapolated:
    'Nivå {level} ligg over det kalibreringsdataa validerer (nivå til og med {max}): delen falsk aksept er ekstrapolert frå ein modell av dei målte verdiane, ikkje målt.',
  signedLine: 'Dette dokumentet er elektronisk signert av {signer} (PAdES). Signaturpanelet i ein PDF-lesar viser om signaturen er gyldig.',
};

const da: ReportCheckMessages = {
  issuedBy: 'Udstedt af',
  merchant: 'For virksomhed',
  testMark: 'KUN TEST – dannet i et testmiljø, ikke bevis for nogens identitet',
  specimenMark: 'PRØVEDOKUMENT – ikke et ægte identitetsdokument',
  checks: 'Kontroller',
  labels: {
    documentSignature: 'Dokumentets signatur',
    signerChain: 'Landets certifikatkæde',
    revocationList: 'Spærreliste (CRL) gældende',
    dataGroupHashes: 'Hashværdier for datagrupper',
    cloneDetection: 'Kloningskontrol',
    documentType: 'Dokumenttype godkendt',
    documentValidity: 'Dokumentet er ikke udløbet',
    faceMatch: 'Niveau for ansigtsmatch',
    liveness: 'Kontrol af levende person og præsentationsangreb',
  },
  outcomes: { passed: 'Godkendt', failed: 'Ikke godkendt', notPerformed: 'Ikke udført', noneOffered: 'Ikke muligt', warning: 'Godkendt med advarsel' },
  methods: { 'active-authentication': 'Active Authentication', 'chip-authentication': 'Chip Authentication' },
  chipOffersNone: 'chippen tilbyder ingen',
  chipFailedFirst: 'kontrollen af chippen fejlede først',
  noFace: 'intet brugbart ansigt fundet',
  crlOutdated: 'landets spærreliste skulle have været fornyet {date}: spærringer offentliggjort siden er ikke kendt',
  crlInGrace: 'landets spærreliste skulle have været fornyet {date} (inden for den frist, der tillades for sen offentliggørelse)',
  noCrl: 'der er ikke indlæst nogen spærreliste for dette land',
  levelFar: 'niveau {level}, falsk accept højst 1 ud af {n}',
  levelFarModelled: 'niveau {level}, falsk accept 1 ud af {n} ifølge en model, ikke målt; målt: højst 1 ud af {m} (niveau {max})',
  levelFarModelledUnmeasured: 'niveau {level}, falsk accept 1 ud af {n} ifølge en model, ikke målt',
  extrapolated:
    'Niveau {level} ligger over det, kalibreringsdataene validerer (niveauer til og med {max}): andelen af falsk accept er ekstrapoleret fra en model af de målte værdier, ikke målt.',
  signedLine: 'Dette dokument er elektronisk signeret af {signer} (PAdES). Signaturpanelet i en PDF-læser viser, om signaturen er gyldig.',
};

const sv: ReportCheckMessages = {
  issuedBy: 'Utfärdad av',
  merchant: 'För företag',
  testMark: 'ENDAST TEST – skapad i en testmiljö, inte bevis för någons identitet',
  specimenMark: 'PROVEXEMPLAR – inte en äkta id-handling',
  checks: 'Kontroller',
  labels: {
    documentSignature: 'Handlingens signatur',
    signerChain: 'Landets certifikatkedja',
    revocationList: 'Spärrlista (CRL) aktuell',
    dataGroupHashes: 'Hashvärden för datagrupper',
    cloneDetection: 'Kloningskontroll',
    documentType: 'Typ av handling godtagen',
    documentValidity: 'Handlingen har inte gått ut',
    faceMatch: 'Nivå för ansiktsmatchning',
    liveness: 'Kontroll av levande person och presentationsattacker',
  },
  outcomes: { passed: 'Godkänd', failed: 'Inte godkänd', notPerformed: 'Inte utförd', noneOffered: 'Inte möjlig', warning: 'Godkänd med varning' },
  methods: { 'active-authentication': 'Active Authentication', 'chip-authentication': 'Chip Authentication' },
  chipOffersNone: 'chippet erbjuder ingen',
  chipFailedFirst: 'kontrollerna av chippet misslyckades först',
  noFace: 'inget användbart ansikte hittades',
  crlOutdated: 'landets spärrlista skulle ha förnyats {date}: spärrar som publicerats sedan dess är inte kända',
  crlInGrace: 'landets spärrlista skulle ha förnyats {date} (inom den frist som tillåts för sen publicering)',
  noCrl: 'ingen spärrlista är inläst för detta land',
  levelFar: 'nivå {level}, falsk acceptans högst 1 av {n}',
  levelFarModelled: 'nivå {level}, falsk acceptans 1 av {n} enligt en modell, inte uppmätt; uppmätt: högst 1 av {m} (nivå {max})',
  levelFarModelledUnmeasured: 'nivå {level}, falsk acceptans 1 av {n} enligt en modell, inte uppmätt',
  extrapolated:
    'Nivå {level} ligger över det som kalibreringsdata validerar (nivåer till och med {max}): andelen falsk acceptans är extrapolerad från en modell av de uppmätta värdena, inte uppmätt.',
  signedLine: 'Det här dokumentet är elektroniskt signerat av {signer} (PAdES). Signaturpanelen i en PDF-läsare visar om signaturen är giltig.',
};

const fi: ReportCheckMessages = {
  issuedBy: 'Myöntäjä',
  merchant: 'Asiakasyritys',
  testMark: 'VAIN TESTI – luotu testiympäristössä, ei todiste kenenkään henkilöllisyydestä',
  specimenMark: 'MALLIASIAKIRJA – ei aito henkilöllisyysasiakirja',
  checks: 'Tarkistukset',
  labels: {
    documentSignature: 'Asiakirjan allekirjoitus',
    signerChain: 'Maan varmenneketju',
    revocationList: 'Sulkulista (CRL) ajan tasalla',
    dataGroupHashes: 'Tietoryhmien tiivisteet',
    cloneDetection: 'Kloonauksen tunnistus',
    documentType: 'Asiakirjan tyyppi hyväksytty',
    documentValidity: 'Asiakirja voimassa',
    faceMatch: 'Kasvojen vastaavuustaso',
    liveness: 'Elävyyden ja esityshyökkäysten tarkistus',
  },
  outcomes: { passed: 'Hyväksytty', failed: 'Hylätty', notPerformed: 'Ei tehty', noneOffered: 'Ei mahdollinen', warning: 'Hyväksytty varoituksin' },
  methods: { 'active-authentication': 'Active Authentication', 'chip-authentication': 'Chip Authentication' },
  chipOffersNone: 'siru ei tarjoa sitä',
  chipFailedFirst: 'sirun tarkistukset epäonnistuivat ensin',
  noFace: 'käyttökelpoisia kasvoja ei löytynyt',
  crlOutdated: 'maan sulkulista olisi pitänyt uusia {date}: sen jälkeen julkaistuja sulkuja ei tunneta',
  crlInGrace: 'maan sulkulista olisi pitänyt uusia {date} (myöhäiselle julkaisulle sallitun määräajan sisällä)',
  noCrl: 'tälle maalle ei ole ladattu sulkulistaa',
  levelFar: 'taso {level}, virheellinen hyväksyntä enintään 1/{n}',
  levelFarModelled: 'taso {level}, virheellinen hyväksyntä 1/{n} mallin mukaan, ei mitattu; mitattu: enintään 1/{m} (taso {max})',
  levelFarModelledUnmeasured: 'taso {level}, virheellinen hyväksyntä 1/{n} mallin mukaan, ei mitattu',
  extrapolated:
    'Taso {level} on korkeampi kuin kalibrointiaineiston vahvistamat tasot (enintään {max}): sen virheellisen hyväksynnän osuus on ekstrapoloitu mitattujen arvojen mallista, ei mitattu.',
  signedLine:
    'Tämä asiakirja on sähköisesti allekirjoitettu, allekirjoittaja {signer} (PAdES). PDF-lukijan allekirjoituspaneeli näyttää, onko allekirjoitus pätevä.',
};

const MESSAGES: Record<ReportLocale, ReportCheckMessages> = { 'en-GB': en, 'nb-NO': nb, 'nn-NO': nn, 'da-DK': da, 'sv-SE': sv, 'sv-FI': sv, 'fi-FI': fi };

export function reportCheckMessagesFor(locale: ReportLocale): ReportCheckMessages {
  return MESSAGES[locale];
}
