import { IDENTITY_DOCUMENT_OFFER } from '../../broker/spi/identity-assurance/identity-document-evidence.js';
import { assuranceMetadata } from './assurance-metadata.js';

const RECORDS = { evidence: ['electronic_record' as const], records: ['urn:svc:record-type:eid-login'] };

describe('the identity assurance metadata (IDA 1.0 §7)', () => {
  it('says verified_claims are not supported, and nothing more, where no scheme can state a verification', () => {
    expect(assuranceMetadata({ isProduction: true, identityAssurance: {} }, { builtIn: [], sources: [] })).toEqual({ verified_claims_supported: false });
  });

  it('in production: the configured framework of each scheme, the service framework for the others and for schemes that are data', () => {
    const metadata = assuranceMetadata(
      { isProduction: true, identityAssurance: { 'document-verifier': { trust_framework: 'eidas' }, bank: { trust_framework: 'de_aml' } } },
      { builtIn: [{ id: 'document-verifier', offer: IDENTITY_DOCUMENT_OFFER }], sources: [RECORDS] },
    );
    expect(metadata).toEqual({
      verified_claims_supported: true,
      trust_frameworks_supported: ['de_aml', 'eidas', 'urn:svc:trust-framework:service'],
      evidence_supported: ['document', 'electronic_record'],
      documents_supported: ['driving_permit', 'idcard', 'passport', 'residence_permit', 'visa'],
      documents_check_methods_supported: ['bvr', 'vcrypt'],
      electronic_records_supported: ['urn:svc:record-type:eid-login'],
      claims_in_verified_claims_supported: ['given_name', 'family_name', 'name', 'birthdate', 'gender', 'nationalities', 'place_of_birth'],
    });
  });

  it('only the configured frameworks when every scheme is configured and none are data; only the test one in customer-test', () => {
    const schemes = { builtIn: [{ id: 'document-verifier', offer: IDENTITY_DOCUMENT_OFFER }], sources: [] };
    const identityAssurance = { 'document-verifier': { trust_framework: 'eidas' } };
    expect(assuranceMetadata({ isProduction: true, identityAssurance }, schemes).trust_frameworks_supported).toEqual(['eidas']);
    expect(assuranceMetadata({ isProduction: false, identityAssurance }, schemes).trust_frameworks_supported).toEqual(['urn:svc:trust-framework:test']);
    expect(assuranceMetadata({ isProduction: true, identityAssurance }, schemes)).not.toHaveProperty('electronic_records_supported');
  });
});
