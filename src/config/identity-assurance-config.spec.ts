import { ConfigError } from './app-config.js';
import { loadIdentityAssuranceConfig } from './identity-assurance-config.js';

const problems = (value: string) => {
  try {
    loadIdentityAssuranceConfig({ IDA_TRUST_FRAMEWORKS: value });
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
};

describe('IDA_TRUST_FRAMEWORKS', () => {
  it('is empty when unset, and reads a framework with its levels per scheme id', () => {
    expect(loadIdentityAssuranceConfig({})).toEqual({});
    expect(
      loadIdentityAssuranceConfig({
        IDA_TRUST_FRAMEWORKS: '{"document-verifier":{"trust_framework":"eidas","assurance_level_high":"high"},"bank":{"trust_framework":"de_aml"}}',
      }),
    ).toEqual({
      'document-verifier': { trust_framework: 'eidas', assurance_level_high: 'high' },
      bank: { trust_framework: 'de_aml' },
    });
  });

  it.each([
    ['not JSON', '{eidas', /must be a JSON object/],
    ['an array', '[]', /keyed by scheme id/],
    ['a bad scheme id', '{"Doc Verifier":{"trust_framework":"eidas"}}', /is not a scheme id/],
    ['no trust_framework', '{"bank":{"assurance_level":"high"}}', /bank.trust_framework: required/],
    ['an unknown field', '{"bank":{"trust_framework":"eidas","level":"high"}}', /unknown field level/],
    ['a value with a space', '{"bank":{"trust_framework":"eidas high"}}', /printable characters without spaces/],
    ["the service's own test value", '{"bank":{"trust_framework":"urn:svc:trust-framework:test"}}', /service's own values are not configured/],
  ])('refuses %s, naming the variable', (_name, value, message) => {
    const found = problems(value);
    expect(found.join('\n')).toMatch(message);
    expect(found.every((p) => p.startsWith('IDA_TRUST_FRAMEWORKS'))).toBe(true);
  });
});
