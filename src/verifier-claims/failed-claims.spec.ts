import { mapVerifierClaims, type DocumentHolderData } from './map-verifier-claims.js';

const holder: DocumentHolderData = {
  documentCode: 'P',
  issuingState: 'NOR',
  documentNumber: 'FH7654321',
  mrzName: 'NORDMANN<<KAARE<<<<<<<<<<<<<<<<<<<<<<',
  nationality: 'NOR',
  mrzDateOfBirth: '800115',
  sex: 'M',
  mrzDateOfExpiry: '351231',
  optionalData: '15018012345<<<',
  dg11: { fullName: 'NORDMANN<<KÅRE', personalNumber: '15018012345', fullDateOfBirth: '19800115', placeOfBirth: ['OSLO'] },
};
const now = new Date('2026-01-01T00:00:00Z');

describe('claims of a failed verification', () => {
  it('carry only what explains the failure, never the identity of a document that did not verify', () => {
    const claims = mapVerifierClaims(
      holder,
      {
        result: 'fail',
        explanations: ['STATUS_BAD_DOCUMENTHASHES'],
        facematchLevel: 0,
        sources: ['SDK_NFC'],
        authFilesUrl: 'https://x/auth_files/fetch.html?tid=1',
      },
      now,
    );
    expect(claims).toEqual({
      authentication_result: 'fail',
      result_explanation: 'STATUS_BAD_DOCUMENTHASHES',
      document_type: 'PASSPORT',
      issuing_country: 'NOR',
      interpreted_issuing_country: 'Norway',
    });
  });

  it('leave a passing verification its full claim set', () => {
    const claims = mapVerifierClaims(holder, { result: 'pass', explanations: [], facematchLevel: 8, sources: ['SDK_NFC', 'SDK_FACESCAN'] }, now);
    expect(claims).toMatchObject({ document_number: 'FH7654321', primary_identifier: 'NORDMANN', birthdate: '15.01.1980', authentication_result: 'pass' });
  });
});
