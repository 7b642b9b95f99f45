import type { DocumentHolderData, VerificationOutcome } from '../../src/verifier-claims/map-verifier-claims.js';

/** Documents and outcomes the claim mapping's specs share: ICAO's specimens as their MRZ reads, and a passed verification. */

/** The fields of an ICAO TD3 MRZ (9303-4 §4.2.2), sliced by position. */
function td3(line1: string, line2: string): DocumentHolderData {
  return {
    documentCode: line1.slice(0, 2).replace(/</g, ''),
    issuingState: line1.slice(2, 5),
    mrzName: line1.slice(5),
    documentNumber: line2.slice(0, 9),
    nationality: line2.slice(10, 13),
    mrzDateOfBirth: line2.slice(13, 19),
    sex: line2.charAt(20) as DocumentHolderData['sex'],
    mrzDateOfExpiry: line2.slice(21, 27),
    optionalData: line2.slice(28, 42),
  };
}

/** The fields of an ICAO TD1 MRZ (9303-5 §4.2.2), sliced by position. */
function td1(line1: string, line2: string, line3: string): DocumentHolderData {
  return {
    documentCode: line1.slice(0, 2).replace(/</g, ''),
    issuingState: line1.slice(2, 5),
    documentNumber: line1.slice(5, 14),
    optionalData: line1.slice(15, 30),
    mrzDateOfBirth: line2.slice(0, 6),
    sex: line2.charAt(7) as DocumentHolderData['sex'],
    mrzDateOfExpiry: line2.slice(8, 14),
    nationality: line2.slice(15, 18),
    mrzName: line3,
  };
}

export const SPECIMEN_PASSPORT = td3('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10');
export const SPECIMEN_ID_CARD = td1('I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<');

export const PASS: VerificationOutcome = {
  result: 'pass',
  explanations: [],
  facematchLevel: 8,
  sources: ['SDK_NFC', 'SDK_FACESCAN'],
  authFilesUrl: 'https://broker.example/auth_files/fetch.html?id=abc',
};
