/**
 * Texts of the auth-files evidence report (spec 4.8: the PDF content language is one of seven locales).
 * sv-FI is Swedish as written in Finland: it shares the Swedish texts; dates follow each locale's own format.
 */
export const REPORT_LOCALES = ['nb-NO', 'nn-NO', 'en-GB', 'da-DK', 'sv-SE', 'fi-FI', 'sv-FI'] as const;
export type ReportLocale = (typeof REPORT_LOCALES)[number];
export const DEFAULT_REPORT_LOCALE: ReportLocale = 'en-GB';

/** Labels of the spec 2.1 attributes the report can show. */
export type ClaimLabels = Record<
  | 'document_type'
  | 'issuing_country'
  | 'interpreted_issuing_country'
  | 'document_number'
  | 'primary_identifier'
  | 'secondary_identifier'
  | 'nationality'
  | 'interpreted_nationality'
  | 'birthdate'
  | 'personal_number'
  | 'gender'
  | 'date_of_expiry'
  | 'name'
  | 'place_of_birth'
  | 'other_identifier'
  | 'authentication_sources'
  | 'result_explanation',
  string
>;

export interface ReportMessages {
  title: string;
  intro: string;
  result: string;
  pass: string;
  fail: string;
  verifiedAt: string;
  transactionId: string;
  attributes: string;
  noAttributes: string;
  eidasHigh: string;
  photos: string;
  documentPhoto: string;
  selfie: string;
  addendum: string;
  generatedAt: string;
  /** {tid}, {page}, {pages} */
  footer: string;
  /** The visible PAdES signature box, {signer} the certificate's common name, {date} the signing time; \n breaks the line. */
  signedBy: string;
  claims: ClaimLabels;
}

const en: ReportMessages = {
  title: 'Identity document verification',
  intro: 'Evidence of a verification of an ICAO 9303 identity document: chip read by NFC and the holder’s face compared with the document photo.',
  result: 'Result',
  pass: 'Passed',
  fail: 'Failed',
  verifiedAt: 'Verified at',
  transactionId: 'Transaction ID',
  attributes: 'Document attributes',
  noAttributes: 'No attributes are released for this verification.',
  eidasHigh: 'Level of assurance: eIDAS high',
  photos: 'Photos',
  documentPhoto: 'Document photo (chip)',
  selfie: 'Face scan',
  addendum: 'Details from the service',
  generatedAt: 'Report generated at',
  footer: 'Transaction {tid} · page {page} of {pages}',
  signedBy: 'Digitally signed by {signer}\non {date}',
  claims: {
    document_type: 'Document type',
    issuing_country: 'Issuing country',
    interpreted_issuing_country: 'Issuing country (name)',
    document_number: 'Document number',
    primary_identifier: 'Surname',
    secondary_identifier: 'Given names',
    nationality: 'Nationality',
    interpreted_nationality: 'Nationality (name)',
    birthdate: 'Date of birth',
    personal_number: 'Personal number',
    gender: 'Sex',
    date_of_expiry: 'Date of expiry',
    name: 'Full name',
    place_of_birth: 'Place of birth',
    other_identifier: 'Other names',
    authentication_sources: 'Data sources',
    result_explanation: 'Reason for failure',
  },
};

const nb: ReportMessages = {
  title: 'Verifisering av identitetsdokument',
  intro:
    'Dokumentasjon av en verifisering av et ICAO 9303-identitetsdokument: brikken er lest med NFC og innehaverens ansikt er sammenlignet med dokumentbildet.',
  result: 'Resultat',
  pass: 'Godkjent',
  fail: 'Ikke godkjent',
  verifiedAt: 'Verifisert',
  transactionId: 'Transaksjons-ID',
  attributes: 'Opplysninger fra dokumentet',
  noAttributes: 'Ingen opplysninger utleveres for denne verifiseringen.',
  eidasHigh: 'Sikkerhetsnivå: eIDAS høyt',
  photos: 'Bilder',
  documentPhoto: 'Dokumentbilde (brikke)',
  selfie: 'Ansiktsskanning',
  addendum: 'Opplysninger fra tjenesten',
  generatedAt: 'Rapport laget',
  footer: 'Transaksjon {tid} · side {page} av {pages}',
  signedBy: 'Digitalt signert av {signer}\nden {date}',
  claims: {
    document_type: 'Dokumenttype',
    issuing_country: 'Utstedende land',
    interpreted_issuing_country: 'Utstedende land (navn)',
    document_number: 'Dokumentnummer',
    primary_identifier: 'Etternavn',
    secondary_identifier: 'Fornavn',
    nationality: 'Statsborgerskap',
    interpreted_nationality: 'Statsborgerskap (navn)',
    birthdate: 'Fødselsdato',
    personal_number: 'Personnummer',
    gender: 'Kjønn',
    date_of_expiry: 'Utløpsdato',
    name: 'Fullt navn',
    place_of_birth: 'Fødested',
    other_identifier: 'Andre navn',
    authentication_sources: 'Datakilder',
    result_explanation: 'Årsak til avvisning',
  },
};

const nn: ReportMessages = {
  title: 'Verifisering av identitetsdokument',
  intro:
    'Dokumentasjon av ei verifisering av eit ICAO 9303-identitetsdokument: brikka er lesen med NFC og ansiktet til innehavaren er samanlikna med dokumentbiletet.',
  result: 'Resultat',
  pass: 'Godkjend',
  fail: 'Ikkje godkjend',
  verifiedAt: 'Verifisert',
  transactionId: 'Transaksjons-ID',
  attributes: 'Opplysningar frå dokumentet',
  noAttributes: 'Ingen opplysningar blir utleverte for denne verifiseringa.',
  eidasHigh: 'Tryggingsnivå: eIDAS høgt',
  photos: 'Bilete',
  documentPhoto: 'Dokumentbilete (brikke)',
  selfie: 'Ansiktsskanning',
  addendum: 'Opplysningar frå tenesta',
  generatedAt: 'Rapport laga',
  footer: 'Transaksjon {tid} · side {page} av {pages}',
  signedBy: 'Digitalt signert av {signer}\nden {date}',
  claims: {
    document_type: 'Dokumenttype',
    issuing_country: 'Utferdande land',
    interpreted_issuing_country: 'Utferdande land (namn)',
    document_number: 'Dokumentnummer',
    primary_identifier: 'Etternamn',
    secondary_identifier: 'Førenamn',
    nationality: 'Statsborgarskap',
    interpreted_nationality: 'Statsborgarskap (namn)',
    birthdate: 'Fødselsdato',
    personal_number: 'Personnummer',
    gender: 'Kjønn',
    date_of_expiry: 'Utløpsdato',
    name: 'Fullt namn',
    place_of_birth: 'Fødestad',
    other_identifier: 'Andre namn',
    authentication_sources: 'Datakjelder',
    result_explanation: 'Årsak til avvising',
  },
};

const da: ReportMessages = {
  title: 'Verifikation af identitetsdokument',
  intro:
    'Dokumentation for en verifikation af et ICAO 9303-identitetsdokument: chippen er læst med NFC, og indehaverens ansigt er sammenlignet med dokumentets foto.',
  result: 'Resultat',
  pass: 'Godkendt',
  fail: 'Ikke godkendt',
  verifiedAt: 'Verificeret',
  transactionId: 'Transaktions-ID',
  attributes: 'Oplysninger fra dokumentet',
  noAttributes: 'Der udleveres ingen oplysninger for denne verifikation.',
  eidasHigh: 'Sikringsniveau: eIDAS højt',
  photos: 'Billeder',
  documentPhoto: 'Dokumentfoto (chip)',
  selfie: 'Ansigtsscanning',
  addendum: 'Oplysninger fra tjenesten',
  generatedAt: 'Rapport dannet',
  footer: 'Transaktion {tid} · side {page} af {pages}',
  signedBy: 'Digitalt signeret af {signer}\nden {date}',
  claims: {
    document_type: 'Dokumenttype',
    issuing_country: 'Udstedende land',
    interpreted_issuing_country: 'Udstedende land (navn)',
    document_number: 'Dokumentnummer',
    primary_identifier: 'Efternavn',
    secondary_identifier: 'Fornavne',
    nationality: 'Nationalitet',
    interpreted_nationality: 'Nationalitet (navn)',
    birthdate: 'Fødselsdato',
    personal_number: 'Personnummer',
    gender: 'Køn',
    date_of_expiry: 'Udløbsdato',
    name: 'Fulde navn',
    place_of_birth: 'Fødested',
    other_identifier: 'Andre navne',
    authentication_sources: 'Datakilder',
    result_explanation: 'Årsag til afvisning',
  },
};

const sv: ReportMessages = {
  title: 'Verifiering av id-handling',
  intro:
    'Underlag för en verifiering av en id-handling enligt ICAO 9303: chippet har lästs med NFC och innehavarens ansikte har jämförts med fotot i handlingen.',
  result: 'Resultat',
  pass: 'Godkänd',
  fail: 'Inte godkänd',
  verifiedAt: 'Verifierad',
  transactionId: 'Transaktions-id',
  attributes: 'Uppgifter från handlingen',
  noAttributes: 'Inga uppgifter lämnas ut för den här verifieringen.',
  eidasHigh: 'Tillitsnivå: eIDAS hög',
  photos: 'Bilder',
  documentPhoto: 'Foto i handlingen (chip)',
  selfie: 'Ansiktsskanning',
  addendum: 'Uppgifter från tjänsten',
  generatedAt: 'Rapporten skapad',
  footer: 'Transaktion {tid} · sida {page} av {pages}',
  signedBy: 'Digitalt signerad av {signer}\nden {date}',
  claims: {
    document_type: 'Typ av handling',
    issuing_country: 'Utfärdande land',
    interpreted_issuing_country: 'Utfärdande land (namn)',
    document_number: 'Handlingens nummer',
    primary_identifier: 'Efternamn',
    secondary_identifier: 'Förnamn',
    nationality: 'Medborgarskap',
    interpreted_nationality: 'Medborgarskap (namn)',
    birthdate: 'Födelsedatum',
    personal_number: 'Personnummer',
    gender: 'Kön',
    date_of_expiry: 'Giltig till',
    name: 'Fullständigt namn',
    place_of_birth: 'Födelseort',
    other_identifier: 'Andra namn',
    authentication_sources: 'Datakällor',
    result_explanation: 'Orsak till avslag',
  },
};

const fi: ReportMessages = {
  title: 'Henkilöllisyysasiakirjan tarkistus',
  intro: 'Todiste ICAO 9303 -henkilöllisyysasiakirjan tarkistuksesta: siru on luettu NFC:llä ja haltijan kasvoja on verrattu asiakirjan kuvaan.',
  result: 'Tulos',
  pass: 'Hyväksytty',
  fail: 'Hylätty',
  verifiedAt: 'Tarkistettu',
  transactionId: 'Tapahtuman tunnus',
  attributes: 'Asiakirjan tiedot',
  noAttributes: 'Tästä tarkistuksesta ei luovuteta tietoja.',
  eidasHigh: 'Varmuustaso: eIDAS korkea',
  photos: 'Kuvat',
  documentPhoto: 'Asiakirjan kuva (siru)',
  selfie: 'Kasvokuva',
  addendum: 'Palvelun tiedot',
  generatedAt: 'Raportti luotu',
  footer: 'Tapahtuma {tid} · sivu {page}/{pages}',
  signedBy: 'Sähköisesti allekirjoittanut {signer}\n{date}',
  claims: {
    document_type: 'Asiakirjan tyyppi',
    issuing_country: 'Myöntäjämaa',
    interpreted_issuing_country: 'Myöntäjämaa (nimi)',
    document_number: 'Asiakirjan numero',
    primary_identifier: 'Sukunimi',
    secondary_identifier: 'Etunimet',
    nationality: 'Kansalaisuus',
    interpreted_nationality: 'Kansalaisuus (nimi)',
    birthdate: 'Syntymäaika',
    personal_number: 'Henkilötunnus',
    gender: 'Sukupuoli',
    date_of_expiry: 'Voimassa',
    name: 'Koko nimi',
    place_of_birth: 'Syntymäpaikka',
    other_identifier: 'Muut nimet',
    authentication_sources: 'Tietolähteet',
    result_explanation: 'Hylkäyksen syy',
  },
};

const MESSAGES: Record<ReportLocale, ReportMessages> = { 'en-GB': en, 'nb-NO': nb, 'nn-NO': nn, 'da-DK': da, 'sv-SE': sv, 'sv-FI': sv, 'fi-FI': fi };

export function reportMessagesFor(locale: ReportLocale): ReportMessages {
  return MESSAGES[locale];
}
