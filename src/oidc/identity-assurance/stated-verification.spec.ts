import { ACR_EIDAS_HIGH } from '../../broker/spi/acr.js';
import type { IdentityVerification } from '../../broker/spi/identity-assurance/identity-verification.js';
import { statedFramework, statedVerification } from './stated-verification.js';

const VERIFICATION: IdentityVerification = {
  time: '2026-11-29T11:00:00Z',
  process: 'tx-1',
  test: false,
  evidence: [{ type: 'document', check_details: [], document_details: { type: 'passport', document_number: 'X1', personal_number: '15018012345' } }],
};
const EIDAS = { trust_framework: 'eidas', assurance_level: 'substantial', assurance_level_high: 'high' };
const production = (identityAssurance: Record<string, typeof EIDAS | { trust_framework: string }> = { 'document-verifier': EIDAS }) => ({
  isProduction: true,
  identityAssurance,
});
const login = (acr?: string, verification: IdentityVerification = VERIFICATION, scheme = 'document-verifier') => ({ scheme, acr, verification });

describe('the trust framework a login states (operator configuration, never the merchant or the scheme)', () => {
  it('eIDAS high only for a login that met the eIDAS-high rule; the configured lower level otherwise', () => {
    expect(statedFramework(production(), login(ACR_EIDAS_HIGH))).toEqual({ trust_framework: 'eidas', assurance_level: 'high' });
    expect(statedFramework(production(), login())).toEqual({ trust_framework: 'eidas', assurance_level: 'substantial' });
    expect(statedFramework(production(), login('urn:svc:acrp:level:high'))).toEqual({ trust_framework: 'eidas', assurance_level: 'substantial' });
  });

  it('no level where none is configured; the service framework for a scheme the operator did not configure', () => {
    expect(statedFramework(production({ 'document-verifier': { trust_framework: 'de_aml' } }), login(ACR_EIDAS_HIGH))).toEqual({ trust_framework: 'de_aml' });
    expect(statedFramework(production(), login(undefined, VERIFICATION, 'eu-wallet'))).toEqual({ trust_framework: 'urn:svc:trust-framework:service' });
  });

  it('the test framework for a test run and anywhere in customer-test, whatever the configuration', () => {
    expect(statedFramework(production(), login(ACR_EIDAS_HIGH, { ...VERIFICATION, test: true }))).toEqual({ trust_framework: 'urn:svc:trust-framework:test' });
    expect(statedFramework({ ...production(), isProduction: false }, login(ACR_EIDAS_HIGH))).toEqual({ trust_framework: 'urn:svc:trust-framework:test' });
  });

  it("an upstream's own level counts only within the configured framework and levels, never above them", () => {
    const upstream = (asserted: IdentityVerification['asserted'], acr?: string) =>
      statedFramework(production({ bank: EIDAS }), login(acr, { ...VERIFICATION, asserted }, 'bank'));
    expect(upstream({ trust_framework: 'eidas', assurance_level: 'low' })).toEqual({ trust_framework: 'eidas', assurance_level: 'substantial' });
    expect(upstream({ trust_framework: 'eidas', assurance_level: 'high' })).toEqual({ trust_framework: 'eidas', assurance_level: 'substantial' });
    expect(upstream({ trust_framework: 'eidas', assurance_level: 'high' }, ACR_EIDAS_HIGH)).toEqual({ trust_framework: 'eidas', assurance_level: 'high' });
    expect(upstream({ trust_framework: 'eidas', assurance_level: 'substantial' }, ACR_EIDAS_HIGH)).toEqual({
      trust_framework: 'eidas',
      assurance_level: 'substantial',
    });
    expect(upstream({ trust_framework: 'uk_tfida', assurance_level: 'high' }, ACR_EIDAS_HIGH)).toEqual({ trust_framework: 'eidas', assurance_level: 'high' });
  });

  it('the personal number in the evidence only for a merchant granted ssn', () => {
    const withSsn = statedVerification(production(), login(), true) as { evidence: { document_details: object }[] };
    const without = statedVerification(production(), login(), false) as { evidence: { document_details: object }[] };
    expect(withSsn.evidence[0]!.document_details).toHaveProperty('personal_number', '15018012345');
    expect(without.evidence[0]!.document_details).toEqual({ type: 'passport', document_number: 'X1' });
    expect(VERIFICATION.evidence[0]).toHaveProperty('document_details.personal_number');
  });
});
