import type { ReportLocale } from './auth-files-report-messages.js';

/**
 * The words the evidence report shows for the coded values of spec 2.1 claims (document type, sex, data sources,
 * reasons for failure). The claims keep their codes, which machines read; a person reads these.
 */
export interface ReportValueMessages {
  documentType: Record<'PASSPORT' | 'ID_CARD' | 'RESIDENCE_PERMIT' | 'CREW_MEMBER_CERTIFICATE' | 'VISA' | 'DRIVERS_LICENSE' | 'OTHER', string>;
  gender: Record<'FEMALE' | 'MALE', string>;
  source: Record<'SDK_NFC' | 'SDK_NFC_NO_CLONE_PROOF' | 'SDK_FACESCAN' | 'REMOTE' | 'SDK_OCR', string>;
  explanation: Record<
    | 'STATUS_BAD_CLONEDETECTION'
    | 'STATUS_BAD_DOCUMENTHASHES'
    | 'STATUS_BAD_DOCUMENTSIGNATURE'
    | 'STATUS_BAD_COUNTRYSIGNERCHAIN'
    | 'STATUS_BAD_DOCUMENTEXPIRED'
    | 'STATUS_BAD_DOCUMENTTYPE'
    | 'STATUS_BAD_NOFACE'
    | 'STATUS_BAD_LIVENESS'
    | 'STATUS_BAD_FACEMATCH',
    string
  >;
}

const en: ReportValueMessages = {
  documentType: {
    PASSPORT: 'Passport',
    ID_CARD: 'Identity card',
    RESIDENCE_PERMIT: 'Residence permit',
    CREW_MEMBER_CERTIFICATE: 'Crew member certificate',
    VISA: 'Visa',
    DRIVERS_LICENSE: 'Driving licence',
    OTHER: 'Other travel document',
  },
  gender: { FEMALE: 'Female', MALE: 'Male' },
  source: {
    SDK_NFC: 'Document chip (NFC)',
    SDK_NFC_NO_CLONE_PROOF: 'chip without clone detection',
    SDK_FACESCAN: 'face scan',
    REMOTE: 'remote source',
    SDK_OCR: 'printed page (OCR)',
  },
  explanation: {
    STATUS_BAD_CLONEDETECTION: 'clone detection failed',
    STATUS_BAD_DOCUMENTHASHES: 'data group hashes differ',
    STATUS_BAD_DOCUMENTSIGNATURE: 'document signature invalid',
    STATUS_BAD_COUNTRYSIGNERCHAIN: 'country signer chain invalid',
    STATUS_BAD_DOCUMENTEXPIRED: 'document expired',
    STATUS_BAD_DOCUMENTTYPE: 'document type not accepted',
    STATUS_BAD_NOFACE: 'no usable face',
    STATUS_BAD_LIVENESS: 'liveness check failed',
    STATUS_BAD_FACEMATCH: 'face does not match',
  },
};

const nb: ReportValueMessages = {
  documentType: {
    PASSPORT: 'Pass',
    ID_CARD: 'Identitetskort',
    RESIDENCE_PERMIT: 'Oppholdskort',
    CREW_MEMBER_CERTIFICATE: 'Besetningsbevis',
    VISA: 'Visum',
    DRIVERS_LICENSE: 'Førerkort',
    OTHER: 'Annet reisedokument',
  },
  gender: { FEMALE: 'Kvinne', MALE: 'Mann' },
  source: {
    SDK_NFC: 'Dokumentets brikke (NFC)',
    SDK_NFC_NO_CLONE_PROOF: 'brikke uten kloningskontroll',
    SDK_FACESCAN: 'ansiktsskanning',
    REMOTE: 'ekstern kilde',
    SDK_OCR: 'trykt side (OCR)',
  },
  explanation: {
    STATUS_BAD_CLONEDETECTION: 'kloningskontrollen feilet',
    STATUS_BAD_DOCUMENTHASHES: 'hashverdiene for datagruppene stemmer ikke',
    STATUS_BAD_DOCUMENTSIGNATURE: 'dokumentets signatur er ugyldig',
    STATUS_BAD_COUNTRYSIGNERCHAIN: 'landets sertifikatkjede er ugyldig',
    STATUS_BAD_DOCUMENTEXPIRED: 'dokumentet er utløpt',
    STATUS_BAD_DOCUMENTTYPE: 'dokumenttypen godtas ikke',
    STATUS_BAD_NOFACE: 'ikke noe brukbart ansikt',
    STATUS_BAD_LIVENESS: 'kontrollen av levende person feilet',
    STATUS_BAD_FACEMATCH: 'ansiktet samsvarer ikke',
  },
};

const nn: ReportValueMessages = {
  documentType: {
    PASSPORT: 'Pass',
    ID_CARD: 'Identitetskort',
    RESIDENCE_PERMIT: 'Opphaldskort',
    CREW_MEMBER_CERTIFICATE: 'Mannskapsbevis',
    VISA: 'Visum',
    DRIVERS_LICENSE: 'Førarkort',
    OTHER: 'Anna reisedokument',
  },
  gender: { FEMALE: 'Kvinne', MALE: 'Mann' },
  source: {
    SDK_NFC: 'Brikka i dokumentet (NFC)',
    SDK_NFC_NO_CLONE_PROOF: 'brikke utan kloningskontroll',
    SDK_FACESCAN: 'ansiktsskanning',
    REMOTE: 'ekstern kjelde',
    SDK_OCR: 'trykt side (OCR)',
  },
  explanation: {
    STATUS_BAD_CLONEDETECTION: 'kloningskontrollen feila',
    STATUS_BAD_DOCUMENTHASHES: 'hashverdiane for datagruppene stemmer ikkje',
    STATUS_BAD_DOCUMENTSIGNATURE: 'signaturen til dokumentet er ugyldig',
    STATUS_BAD_COUNTRYSIGNERCHAIN: 'sertifikatkjeda til landet er ugyldig',
    STATUS_BAD_DOCUMENTEXPIRED: 'dokumentet er utgått',
    STATUS_BAD_DOCUMENTTYPE: 'dokumenttypen blir ikkje godteken',
    STATUS_BAD_NOFACE: 'ikkje noko brukande ansikt',
    STATUS_BAD_LIVENESS: 'kontrollen av levande person feila',
    STATUS_BAD_FACEMATCH: 'ansiktet samsvarer ikkje',
  },
};

const da: ReportValueMessages = {
  documentType: {
    PASSPORT: 'Pas',
    ID_CARD: 'Identitetskort',
    RESIDENCE_PERMIT: 'Opholdskort',
    CREW_MEMBER_CERTIFICATE: 'Besætningsbevis',
    VISA: 'Visum',
    DRIVERS_LICENSE: 'Kørekort',
    OTHER: 'Andet rejsedokument',
  },
  gender: { FEMALE: 'Kvinde', MALE: 'Mand' },
  source: {
    SDK_NFC: 'Dokumentets chip (NFC)',
    SDK_NFC_NO_CLONE_PROOF: 'chip uden kloningskontrol',
    SDK_FACESCAN: 'ansigtsscanning',
    REMOTE: 'ekstern kilde',
    SDK_OCR: 'trykt side (OCR)',
  },
  explanation: {
    STATUS_BAD_CLONEDETECTION: 'kloningskontrollen fejlede',
    STATUS_BAD_DOCUMENTHASHES: 'datagruppernes hashværdier stemmer ikke',
    STATUS_BAD_DOCUMENTSIGNATURE: 'dokumentets signatur er ugyldig',
    STATUS_BAD_COUNTRYSIGNERCHAIN: 'landets certifikatkæde er ugyldig',
    STATUS_BAD_DOCUMENTEXPIRED: 'dokumentet er udløbet',
    STATUS_BAD_DOCUMENTTYPE: 'dokumenttypen godkendes ikke',
    STATUS_BAD_NOFACE: 'intet brugbart ansigt',
    STATUS_BAD_LIVENESS: 'kontrollen af levende person fejlede',
    STATUS_BAD_FACEMATCH: 'ansigtet matcher ikke',
  },
};

const sv: ReportValueMessages = {
  documentType: {
    PASSPORT: 'Pass',
    ID_CARD: 'Id-kort',
    RESIDENCE_PERMIT: 'Uppehållstillstånd',
    CREW_MEMBER_CERTIFICATE: 'Besättningsintyg',
    VISA: 'Visering',
    DRIVERS_LICENSE: 'Körkort',
    OTHER: 'Annan resehandling',
  },
  gender: { FEMALE: 'Kvinna', MALE: 'Man' },
  source: {
    SDK_NFC: 'Handlingens chip (NFC)',
    SDK_NFC_NO_CLONE_PROOF: 'chip utan kloningskontroll',
    SDK_FACESCAN: 'ansiktsskanning',
    REMOTE: 'extern källa',
    SDK_OCR: 'tryckt sida (OCR)',
  },
  explanation: {
    STATUS_BAD_CLONEDETECTION: 'kloningskontrollen misslyckades',
    STATUS_BAD_DOCUMENTHASHES: 'datagruppernas hashvärden stämmer inte',
    STATUS_BAD_DOCUMENTSIGNATURE: 'handlingens signatur är ogiltig',
    STATUS_BAD_COUNTRYSIGNERCHAIN: 'landets certifikatkedja är ogiltig',
    STATUS_BAD_DOCUMENTEXPIRED: 'handlingen har gått ut',
    STATUS_BAD_DOCUMENTTYPE: 'typen av handling godtas inte',
    STATUS_BAD_NOFACE: 'inget användbart ansikte',
    STATUS_BAD_LIVENESS: 'kontrollen av levande person misslyckades',
    STATUS_BAD_FACEMATCH: 'ansiktet matchar inte',
  },
};

const fi: ReportValueMessages = {
  documentType: {
    PASSPORT: 'Passi',
    ID_CARD: 'Henkilökortti',
    RESIDENCE_PERMIT: 'Oleskelulupa',
    CREW_MEMBER_CERTIFICATE: 'Miehistökortti',
    VISA: 'Viisumi',
    DRIVERS_LICENSE: 'Ajokortti',
    OTHER: 'Muu matkustusasiakirja',
  },
  gender: { FEMALE: 'Nainen', MALE: 'Mies' },
  source: {
    SDK_NFC: 'Asiakirjan siru (NFC)',
    SDK_NFC_NO_CLONE_PROOF: 'siru ilman kloonauksen tunnistusta',
    SDK_FACESCAN: 'kasvokuva',
    REMOTE: 'ulkoinen lähde',
    SDK_OCR: 'painettu sivu (OCR)',
  },
  explanation: {
    STATUS_BAD_CLONEDETECTION: 'kloonauksen tunnistus epäonnistui',
    STATUS_BAD_DOCUMENTHASHES: 'tietoryhmien tiivisteet eivät täsmää',
    STATUS_BAD_DOCUMENTSIGNATURE: 'asiakirjan allekirjoitus ei kelpaa',
    STATUS_BAD_COUNTRYSIGNERCHAIN: 'maan varmenneketju ei kelpaa',
    STATUS_BAD_DOCUMENTEXPIRED: 'asiakirja ei ole voimassa',
    STATUS_BAD_DOCUMENTTYPE: 'asiakirjan tyyppiä ei hyväksytä',
    STATUS_BAD_NOFACE: 'käyttökelpoisia kasvoja ei löytynyt',
    STATUS_BAD_LIVENESS: 'elävyyden tarkistus epäonnistui',
    STATUS_BAD_FACEMATCH: 'kasvot eivät vastaa toisiaan',
  },
};

const MESSAGES: Record<ReportLocale, ReportValueMessages> = { 'en-GB': en, 'nb-NO': nb, 'nn-NO': nn, 'da-DK': da, 'sv-SE': sv, 'sv-FI': sv, 'fi-FI': fi };

export function reportValueMessagesFor(locale: ReportLocale): ReportValueMessages {
  return MESSAGES[locale];
}
