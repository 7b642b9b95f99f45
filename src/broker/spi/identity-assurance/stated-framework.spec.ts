import { ACR_EIDAS_HIGH } from '../acr.js';
import { statedFramework } from './stated-framework.js';
import { SERVICE_TRUST_FRAMEWORK, TEST_TRUST_FRAMEWORK } from './predefined-values.js';

const configured = { 'document-verifier': { trust_framework: 'eidas', assurance_level: 'substantial', assurance_level_high: 'high' } };
const production = { isProduction: true, identityAssurance: configured };
const genuine = { test: false };

describe('statedFramework: the operator states the framework, never the scheme', () => {
  it('states the test framework for any login in customer-test, and for a test login (a specimen) in production', () => {
    expect(statedFramework({ isProduction: false, identityAssurance: configured }, { scheme: 'document-verifier', verification: genuine })).toEqual({
      trust_framework: TEST_TRUST_FRAMEWORK,
    });
    expect(statedFramework(production, { scheme: 'document-verifier', acr: ACR_EIDAS_HIGH, verification: { test: true } })).toEqual({
      trust_framework: TEST_TRUST_FRAMEWORK,
    });
  });

  it("states the operator's framework for the scheme, at the level its acr met; the service's own for a scheme without one", () => {
    expect(statedFramework(production, { scheme: 'document-verifier', verification: genuine })).toEqual({
      trust_framework: 'eidas',
      assurance_level: 'substantial',
    });
    expect(statedFramework(production, { scheme: 'document-verifier', acr: ACR_EIDAS_HIGH, verification: genuine })).toEqual({
      trust_framework: 'eidas',
      assurance_level: 'high',
    });
    expect(statedFramework(production, { scheme: 'upstream-x', verification: genuine })).toEqual({ trust_framework: SERVICE_TRUST_FRAMEWORK });
  });

  it("believes an upstream's own level only within the configured framework and levels", () => {
    const upstream = (asserted: { trust_framework: string; assurance_level?: string }, acr?: string) =>
      statedFramework(
        { isProduction: true, identityAssurance: { up: configured['document-verifier'] } },
        { scheme: 'up', acr, verification: { test: false, asserted } },
      );
    expect(upstream({ trust_framework: 'eidas', assurance_level: 'high' }, ACR_EIDAS_HIGH)).toEqual({ trust_framework: 'eidas', assurance_level: 'high' });
    // Not above what its acr met, nor of another framework: the configured level instead.
    expect(upstream({ trust_framework: 'eidas', assurance_level: 'high' })).toEqual({ trust_framework: 'eidas', assurance_level: 'substantial' });
    expect(upstream({ trust_framework: 'de_aml', assurance_level: 'high' }, ACR_EIDAS_HIGH)).toEqual({ trust_framework: 'eidas', assurance_level: 'high' });
  });
});
