import { checkUpstreamVerifiedClaims, isDate, isDateTime, MAX_CHARS, MAX_CLAIM_SETS, MAX_DEPTH } from './upstream-verified-claims.js';

/** A well-formed element after the Schema Definition's own examples: a bank's AML check of a passport. */
function goodVerifiedClaims() {
  return {
    verification: {
      trust_framework: 'de_aml',
      assurance_level: 'substantial',
      time: '2026-03-01T10:15:30+01:00',
      verification_process: 'f24c6f-6d3f-4ec5-973e-b0d8506f3bc7',
      evidence: [
        {
          type: 'document',
          check_details: [{ check_method: 'vpiruv', check_id: 'a1b2', time: '2026-03-01T10:14:00Z' }],
          document_details: {
            type: 'passport',
            document_number: 'C01X00T47',
            date_of_issuance: '2020-01-10',
            date_of_expiry: '2030-01-09',
            issuer: { name: 'Stadt Köln', country_code: 'DEU', street_address: 'Willy-Brandt-Platz 2' },
          },
        },
      ],
    },
    claims: { given_name: 'Max', family_name: 'Meier' },
  };
}

const problem = (raw: unknown) => {
  const checked = checkUpstreamVerifiedClaims(raw);
  return 'problem' in checked ? checked.problem : undefined;
};

describe('an upstream verified_claims element, checked by hand', () => {
  it("takes a well-formed element, alone or as the first of an array, and answers the first set's verification", () => {
    const good = goodVerifiedClaims();
    expect(checkUpstreamVerifiedClaims(good)).toEqual({ verification: good.verification });
    const second = { verification: { trust_framework: 'eidas' }, claims: { birthdate: '1980-01-01' } };
    expect(checkUpstreamVerifiedClaims([good, second])).toEqual({ verification: good.verification });
    expect(checkUpstreamVerifiedClaims({ verification: { trust_framework: 'x' }, claims: {} })).toEqual({ verification: { trust_framework: 'x' } });
  });

  it.each([
    ['not an object', 'yes', 'verified_claims must be an object'],
    ['null', null, 'verified_claims must be an object'],
    ['an empty array', [], 'verified_claims must hold 1 to 4 claim sets'],
    ['no claims', { verification: { trust_framework: 'x' } }, 'verified_claims.claims must be an object'],
    ['no verification', { claims: {} }, 'verified_claims.verification must be an object'],
    ['no trust framework', { verification: { time: '2026-01-01T00:00:00Z' }, claims: {} }, 'verification.trust_framework must be a string'],
    ['a numeric trust framework', { verification: { trust_framework: 7 }, claims: {} }, 'verification.trust_framework must be a string'],
    ['an overlong trust framework', { verification: { trust_framework: 'x'.repeat(201) }, claims: {} }, 'trust_framework must be a string of 1 to 200'],
    ['a numeric assurance level', { verification: { trust_framework: 'x', assurance_level: 2 }, claims: {} }, 'verification.assurance_level must be a string'],
    ['a date for time', { verification: { trust_framework: 'x', time: '2026-01-01' }, claims: {} }, 'verification.time must be an RFC 3339 date-time'],
    ['30 February', { verification: { trust_framework: 'x', time: '2026-02-30T10:00:00Z' }, claims: {} }, 'verification.time must be'],
    ['a time without zone', { verification: { trust_framework: 'x', time: '2026-01-01T10:00:00' }, claims: {} }, 'verification.time must be'],
    ['evidence not an array', { verification: { trust_framework: 'x', evidence: {} }, claims: {} }, 'verification.evidence must be an array'],
    ['empty evidence', { verification: { trust_framework: 'x', evidence: [] }, claims: {} }, 'verification.evidence must be an array'],
    ['an evidence string', { verification: { trust_framework: 'x', evidence: ['document'] }, claims: {} }, 'evidence[0] must be an object'],
    ['an unknown evidence type', { verification: { trust_framework: 'x', evidence: [{ type: 'qes' }] }, claims: {} }, 'evidence[0].type must be one of'],
    [
      'a check without method',
      { verification: { trust_framework: 'x', evidence: [{ type: 'document', check_details: [{ check_id: 'a' }] }] }, claims: {} },
      'check_details[0].check_method',
    ],
    [
      'a check with a bad time',
      { verification: { trust_framework: 'x', evidence: [{ type: 'document', check_details: [{ check_method: 'vpip', time: 'yesterday' }] }] }, claims: {} },
      'check_details[0].time',
    ],
    [
      'document details without type',
      { verification: { trust_framework: 'x', evidence: [{ type: 'document', document_details: { document_number: 'A' } }] }, claims: {} },
      'document_details.type',
    ],
    [
      'a bad expiry date',
      {
        verification: { trust_framework: 'x', evidence: [{ type: 'document', document_details: { type: 'idcard', date_of_expiry: '2030-13-01' } }] },
        claims: {},
      },
      'document_details.date_of_expiry',
    ],
    [
      'an issuer that is a string',
      { verification: { trust_framework: 'x', evidence: [{ type: 'document', document_details: { type: 'idcard', issuer: 'DEU' } }] }, claims: {} },
      'document_details.issuer must be an object',
    ],
    [
      'a record without type',
      { verification: { trust_framework: 'x', evidence: [{ type: 'electronic_record', record: { source: { name: 'x' } } }] }, claims: {} },
      'record.type',
    ],
    [
      'a numeric record source name',
      { verification: { trust_framework: 'x', evidence: [{ type: 'electronic_record', record: { type: 'r', source: { name: 1 } } }] }, claims: {} },
      'record.source.name',
    ],
    [
      'a signature without serial number',
      { verification: { trust_framework: 'x', evidence: [{ type: 'electronic_signature', signature_type: 'qes', issuer: 'x' }] }, claims: {} },
      'evidence[0].serial_number',
    ],
  ])('refuses %s, naming the place and the rule', (_name, raw, expected) => {
    expect(problem(raw)).toContain(expected);
  });

  it('refuses one set of several that is malformed, and more than a few sets', () => {
    expect(problem([goodVerifiedClaims(), { verification: {}, claims: {} }])).toContain('verified_claims[1].verification.trust_framework');
    expect(problem(Array.from({ length: MAX_CLAIM_SETS + 1 }, goodVerifiedClaims))).toBe('verified_claims must hold 1 to 4 claim sets');
  });

  it('refuses an oversized element: too long, too many entries', () => {
    const long = goodVerifiedClaims();
    (long.claims as Record<string, unknown>).filler = 'x'.repeat(MAX_CHARS);
    expect(problem(long)).toBe(`verified_claims is longer than ${MAX_CHARS} characters`);
    const many = goodVerifiedClaims();
    many.verification.evidence = Array.from({ length: 11 }, () => many.verification.evidence[0]);
    expect(problem(many)).toContain('verification.evidence must be an array of 1 to 10 entries');
  });

  it('refuses a deep element, however deep, without walking past the bound', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = { deeper: deep };
    const set = goodVerifiedClaims();
    (set.claims as Record<string, unknown>).address = deep;
    expect(problem(set)).toBe(`verified_claims is nested deeper than ${MAX_DEPTH}`);
    // The set at 1, its claims at 2: arrays at 3 to MAX_DEPTH are allowed, one more is not.
    let nested: unknown = [];
    for (let i = 3; i < MAX_DEPTH; i++) nested = [nested];
    expect(problem({ ...goodVerifiedClaims(), claims: { nested } })).toBeUndefined();
    expect(problem({ ...goodVerifiedClaims(), claims: { nested: [nested] } })).toBe(`verified_claims is nested deeper than ${MAX_DEPTH}`);
  });

  it('never puts a value into the problem', () => {
    const secret = 'C01X00T47-SECRET';
    const raw = {
      verification: {
        trust_framework: 'x',
        evidence: [{ type: 'document', document_details: { type: 'passport', document_number: secret, date_of_expiry: secret } }],
      },
      claims: { given_name: secret },
    };
    expect(problem(raw)).toBeDefined();
    expect(problem(raw)).not.toContain(secret);
  });

  it('reads dates and date-times as RFC 3339 does', () => {
    for (const good of ['2026-03-01T10:15:30Z', '2026-03-01t10:15:30.123456789z', '2024-02-29T23:59:59-05:30']) expect(isDateTime(good)).toBe(true);
    for (const bad of ['2026-03-01T24:00:00Z', '2026-03-01T10:60:00Z', '2023-02-29T10:00:00Z', '2026-03-01 10:15:30Z', '0000-01-01T00:30:00+01:00', 20260301])
      expect(isDateTime(bad)).toBe(false);
    expect(isDate('2024-02-29')).toBe(true);
    for (const bad of ['2023-02-29', '2026-1-01', '2026-01-01T00:00:00Z', null]) expect(isDate(bad)).toBe(false);
  });
});
