import type { DocumentHolderData } from './map-verifier-claims.js';

/** The specimen documents, by id: the test eID names them in the tester's language (its own page texts). */
export type SpecimenDocumentId = 'uto-passport' | 'd-idcard' | 'nor-minor' | 'nor-adult' | 'nld-diacritics';

export interface SpecimenIdentity {
  id: SpecimenDocumentId;
  /** As printed on the document; what the document is comes from the tester's language (test-eid-messages). */
  name: string;
  /** What the document is, in English, for the operator's test pages (the CIBA test page). */
  document: string;
  holder: DocumentHolderData;
}

/**
 * Specimen holders, after the ICAO 9303 specimens (Utopia, UTO) and the German specimen ID card, with expiry dates
 * moved into the future so that the documents are valid. The test eID offers them, the document verifier writes
 * specimen chips of them and the CIBA test page answers as them: they live here, below all three, in the shape the
 * claims are mapped from, so that no scheme imports another.
 * Chosen to cover: TD3 passport with a personal number, TD1 ID card with a one-letter state code and
 * place of birth, a minor (ageverify18 false), a holder with every claim of spec 2.1 (Norwegian passport
 * with personal number, place of birth and a name with diacritics), and a name with diacritics (other_identifier).
 */
export const SPECIMEN_IDENTITIES: SpecimenIdentity[] = [
  {
    id: 'uto-passport',
    name: 'Anna Maria Eriksson',
    document: 'Utopia passport',
    holder: {
      documentCode: 'P',
      issuingState: 'UTO',
      documentNumber: 'L898902C3',
      mrzName: 'ERIKSSON<<ANNA<MARIA',
      nationality: 'UTO',
      mrzDateOfBirth: '740812',
      sex: 'F',
      mrzDateOfExpiry: '340415',
      optionalData: 'ZE184226B',
      dg11: { fullName: 'ERIKSSON<<ANNA<MARIA', personalNumber: 'ZE184226B', fullDateOfBirth: '19740812', placeOfBirth: ['ZENITH'] },
    },
  },
  {
    id: 'd-idcard',
    name: 'Erika Mustermann',
    document: 'German ID card',
    holder: {
      documentCode: 'ID',
      issuingState: 'D',
      documentNumber: 'T22000129',
      mrzName: 'MUSTERMANN<<ERIKA',
      nationality: 'D',
      mrzDateOfBirth: '640812',
      sex: 'F',
      mrzDateOfExpiry: '311031',
      dg11: { fullName: 'MUSTERMANN<<ERIKA', placeOfBirth: ['BERLIN'] },
    },
  },
  {
    id: 'nor-minor',
    name: 'Ola Nordmann',
    document: 'Norwegian passport (minor)',
    holder: {
      documentCode: 'P',
      issuingState: 'NOR',
      documentNumber: 'FH1234567',
      mrzName: 'NORDMANN<<OLA',
      nationality: 'NOR',
      mrzDateOfBirth: '120229',
      sex: 'M',
      mrzDateOfExpiry: '300101',
    },
  },
  {
    id: 'nor-adult',
    name: 'Kåre Nordmann',
    document: 'Norwegian passport (every claim present)',
    holder: {
      documentCode: 'P',
      issuingState: 'NOR',
      documentNumber: 'FH7654321',
      mrzName: 'NORDMANN<<KAARE',
      nationality: 'NOR',
      mrzDateOfBirth: '800115',
      sex: 'M',
      mrzDateOfExpiry: '330601',
      optionalData: '15018012345',
      dg11: { fullName: 'NORDMANN<<KÅRE', personalNumber: '15018012345', fullDateOfBirth: '19800115', placeOfBirth: ['OSLO'] },
    },
  },
  {
    id: 'nld-diacritics',
    name: 'Jürgen Müller',
    document: 'Netherlands passport (name with diacritics)',
    holder: {
      documentCode: 'P',
      issuingState: 'NLD',
      documentNumber: 'SPECI2014',
      mrzName: 'MUELLER<<JUERGEN',
      nationality: 'NLD',
      mrzDateOfBirth: '850301',
      sex: 'M',
      mrzDateOfExpiry: '320301',
      dg11: { fullName: 'MÜLLER<<JÜRGEN' },
    },
  },
];
