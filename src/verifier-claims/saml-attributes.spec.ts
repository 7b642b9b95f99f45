import { ageOverClaims } from './age.js';
import { mapVerifierClaims } from './map-verifier-claims.js';
import { toSamlAttributes } from './saml-attributes.js';
import { PASS, SPECIMEN_PASSPORT } from '../../test/support/mrz-documents.js';

const now = new Date('2026-11-22T12:00:00Z');

describe('toSamlAttributes', () => {
  it('renames spec 2.1 claims to their SAML attributes and joins arrays with commas', () => {
    const claims = { ...mapVerifierClaims(SPECIMEN_PASSPORT, PASS, now), acr: 'urn:svc:cert:eidas:high' };
    expect(toSamlAttributes(claims)).toEqual({
      documenttype: 'PASSPORT',
      issuingcountry: 'UTO',
      documentnumber: 'L898902C3',
      primaryidentifier: 'ERIKSSON',
      secondaryidentifier: 'ANNA MARIA',
      nationality: 'UTO',
      DOB: '12.08.1974',
      personalnumber: 'ZE184226B',
      gender: 'FEMALE',
      dateofexpiry: '15.04.2012',
      fullname: 'ANNA MARIA ERIKSSON',
      facematchlevel: '8',
      AUTHFILESURL: 'https://broker.example/auth_files/fetch.html?id=abc',
      ACR: 'urn:svc:cert:eidas:high',
      AUTHENTICATION_SOURCES: 'SDK_NFC,SDK_FACESCAN',
      AUTHENTICATION_RESULT: 'pass',
    });
  });

  it('keeps age claims under their own name and drops claims without a SAML name', () => {
    const claims = {
      ...ageOverClaims(['ageverify18', 'ageverify70'], '1974-08-12', now),
      given_name: 'ANNA',
      display_name: 'Anna',
      display_given_name: 'Anna',
      display_family_name: 'Eriksson',
      sub: 'x',
      result_explanation: 'STATUS_BAD_DOCUMENTHASHES',
    };
    expect(toSamlAttributes(claims)).toEqual({ age_over_18: 'true', age_over_70: 'false', result_explanation: 'STATUS_BAD_DOCUMENTHASHES' });
  });
});
