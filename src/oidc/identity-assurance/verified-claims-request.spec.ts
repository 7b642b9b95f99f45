import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { requestExample, verifiedClaimsRequestProblems } from '../../../test/support/ida-schemas.js';
import { VerifiedClaimsRequestError, verifiedClaimsSets } from './verified-claims-request.js';

const EXAMPLES = readdirSync(join(import.meta.dirname, '../../../test/fixtures/ekyc-ida/request-examples')).map((f) => f.replace(/\.json$/, ''));
const sets = (claims: Record<string, unknown>) => [
  ...verifiedClaimsSets(claims.id_token, 'claims.id_token'),
  ...verifiedClaimsSets(claims.userinfo, 'claims.userinfo'),
];
const request = (verifiedClaims: unknown) => ({ id_token: { verified_claims: verifiedClaims } });
const refusal = (verifiedClaims: unknown) => {
  try {
    sets(request(verifiedClaims));
  } catch (e) {
    if (e instanceof VerifiedClaimsRequestError) return e.description;
    throw e;
  }
  return undefined;
};
const plain = { verification: { trust_framework: null }, claims: { given_name: null } };

describe('verified_claims requests (IDA 1.0 §5.3-5.8)', () => {
  it.each(EXAMPLES)('accepts the protocol example %s, which the published request schema accepts too', (name) => {
    const example = requestExample(name);
    expect(verifiedClaimsRequestProblems(example)).toEqual([]);
    expect(sets(example).length).toBeGreaterThan(0);
  });

  it('reads an array of claim sets as one set each', () => {
    expect(sets(requestExample('verification_claims_by_trust_frameworks'))).toHaveLength(2);
  });

  it.each([
    ['not an object', 'yes', /must be an object/],
    ['an empty array', [], /must not be an empty array/],
    ['too many sets', Array.from({ length: 9 }, () => plain), /more than 8 claim sets/],
    ['no verification', { claims: { given_name: null } }, /verification must be an object/],
    ['no trust_framework', { verification: {}, claims: { given_name: null } }, /trust_framework is required/],
    ['no claims', { verification: { trust_framework: null } }, /claims must be an object naming at least one claim/],
    ['empty claims', { verification: { trust_framework: null }, claims: {} }, /claims must be an object naming at least one claim/],
    ['a member beside verification and claims', { ...plain, extra: 1 }, /members other than verification and claims/],
    ['a claim request that is a string', { verification: { trust_framework: null }, claims: { given_name: 'x' } }, /must be null or an object/],
    [
      'essential that is not a boolean',
      { verification: { trust_framework: null }, claims: { given_name: { essential: 'yes' } } },
      /essential must be true or false/,
    ],
    [
      'a purpose of 2 characters',
      { verification: { trust_framework: null }, claims: { given_name: { purpose: 'ab' } } },
      /purpose must be a string of 3 to 300/,
    ],
    [
      'a purpose of 301 characters',
      { verification: { trust_framework: null }, claims: { given_name: { purpose: 'a'.repeat(301) } } },
      /purpose must be a string of 3 to 300/,
    ],
    ['values that is not an array', { verification: { trust_framework: { values: 'eidas' } }, claims: { given_name: null } }, /values must be an array/],
    ['empty values', { verification: { trust_framework: { values: [] } }, claims: { given_name: null } }, /values must be an array/],
    ['a negative max_age', { verification: { trust_framework: null, time: { max_age: -1 } }, claims: { given_name: null } }, /max_age must be a whole number/],
    [
      'a fractional max_age',
      { verification: { trust_framework: null, time: { max_age: 1.5 } }, claims: { given_name: null } },
      /max_age must be a whole number/,
    ],
    [
      'max_age on a value that is no date',
      { verification: { trust_framework: { max_age: 5 } }, claims: { given_name: null } },
      /max_age applies to dates only/,
    ],
    [
      'evidence that is not an array',
      { verification: { trust_framework: null, evidence: { type: { value: 'document' } } }, claims: { given_name: null } },
      /evidence must be a non-empty array/,
    ],
    ['evidence without a type', { verification: { trust_framework: null, evidence: [{}] }, claims: { given_name: null } }, /type must be \{"value": …\}/],
    [
      'an evidence type outside the four',
      { verification: { trust_framework: null, evidence: [{ type: { value: 'selfie' } }] }, claims: { given_name: null } },
      /type must be/,
    ],
    [
      'an evidence type filtered with values (§5.4: value only)',
      { verification: { trust_framework: null, evidence: [{ type: { value: 'document', values: ['document'] } }] }, claims: { given_name: null } },
      /must not use values/,
    ],
    ['a member that is neither null nor an object', { verification: { trust_framework: 'eidas' }, claims: { given_name: null } }, /must be null or an object/],
  ])('refuses %s with a message naming where', (_name, verifiedClaims, message) => {
    expect(refusal(verifiedClaims)).toMatch(message);
  });

  it('refuses objects with more than 40 members and nesting deeper than the schema has', () => {
    const wide = Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`claim_${i}`, null]));
    expect(refusal({ verification: { trust_framework: null }, claims: wide })).toMatch(/more than 40 members/);
    let deep: Record<string, unknown> = { x: null };
    for (let i = 0; i < 8; i++) deep = { [`level${i}`]: deep };
    expect(refusal({ verification: { trust_framework: null, ...deep }, claims: { given_name: null } })).toMatch(/nested too deeply/);
  });

  it('accepts a purpose of 3 and of 300 characters, counted in characters not bytes', () => {
    expect(refusal({ verification: { trust_framework: null }, claims: { given_name: { purpose: 'KYC' } } })).toBeUndefined();
    expect(refusal({ verification: { trust_framework: null }, claims: { given_name: { purpose: 'å'.repeat(300) } } })).toBeUndefined();
  });

  it('has nothing to say about a claims parameter without verified_claims', () => {
    expect(sets({ id_token: { given_name: null }, userinfo: { email: null } })).toEqual([]);
  });
});
