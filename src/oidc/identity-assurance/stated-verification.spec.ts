import type { IdentityVerification } from '../../broker/spi/identity-assurance/identity-verification.js';
import { statedVerification } from './stated-verification.js';

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

describe('the verification a login states (its framework: stated-framework.spec.ts)', () => {
  it('states the scheme facts under the configured framework', () => {
    expect(statedVerification(production(), login(), true)).toMatchObject({
      trust_framework: 'eidas',
      assurance_level: 'substantial',
      time: VERIFICATION.time,
      verification_process: 'tx-1',
    });
  });

  it('the personal number in the evidence only for a merchant granted ssn', () => {
    const withSsn = statedVerification(production(), login(), true) as { evidence: { document_details: object }[] };
    const without = statedVerification(production(), login(), false) as { evidence: { document_details: object }[] };
    expect(withSsn.evidence[0]!.document_details).toHaveProperty('personal_number', '15018012345');
    expect(without.evidence[0]!.document_details).toEqual({ type: 'passport', document_number: 'X1' });
    expect(VERIFICATION.evidence[0]).toHaveProperty('document_details.personal_number');
  });
});
