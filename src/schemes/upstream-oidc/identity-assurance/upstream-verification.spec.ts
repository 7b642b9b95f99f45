import { expectValidVerifiedClaims } from '../../../../test/support/ida-schemas.js';
import type { IdentityVerification } from '../../../broker/spi/identity-assurance/identity-verification.js';
import { EID_LOGIN_RECORD } from '../../../broker/spi/identity-assurance/predefined-values.js';
import { MAX_TEXT, upstreamVerification } from './upstream-verification.js';

const ISSUER = 'https://bank.example/oidc';
const authTime = new Date('2026-03-01T10:20:00Z');
const login = (verifiedClaims: unknown) => ({ verifiedClaims, issuer: ISSUER, authTime, test: false });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function upstreamSet() {
  return {
    verification: {
      trust_framework: 'de_aml',
      assurance_level: 'substantial',
      time: '2026-03-01T10:15:30+01:00',
      verification_process: 'f24c6f-6d3f-4ec5-973e-b0d8506f3bc7',
      assurance_process: { policy: 'kept by the upstream, not copied' },
      evidence: [
        {
          type: 'document',
          method: 'pipp',
          check_details: [
            { check_method: 'vpiruv', check_id: 'a1b2', time: '2026-03-01T10:14:00Z' },
            { check_method: 'bvr', organization: 'Face Checks Ltd' },
          ],
          document_details: {
            type: 'passport',
            document_number: 'C01X00T47',
            serial_number: 'not copied',
            date_of_issuance: '2020-01-10',
            date_of_expiry: '2030-01-09',
            issuer: { name: 'Stadt Köln', country_code: 'DEU', street_address: 'not copied' },
          },
          attachments: [{ desc: 'not copied', content_type: 'image/png', content: 'AAAA' }],
        },
        { type: 'vouch', attestation: { type: 'written_attestation' } },
        {
          type: 'electronic_record',
          record: { type: 'bank_account', created_at: '2019-05-02T08:00:00Z', source: { name: 'Bank', country_code: 'DEU', locality: 'not copied' } },
        },
      ],
    },
    claims: { given_name: 'Someone', family_name: 'Else' },
  };
}

/** The element a merchant would get, before the core picks from it: the schema must take it. */
function asStated(v: IdentityVerification) {
  return {
    verified_claims: {
      verification: { trust_framework: v.asserted?.trust_framework ?? 'test', time: v.time, verification_process: v.process, evidence: v.evidence },
      claims: { given_name: 'Max' },
    },
  };
}

describe("an upstream login's verification", () => {
  it('copies a well-formed upstream verification: only the known members, every check naming who did it', () => {
    const { verification, ignored } = upstreamVerification(login(upstreamSet()));
    expect(ignored).toBeUndefined();
    expect(verification).toEqual({
      time: '2026-03-01T09:15:30.000Z',
      process: 'f24c6f-6d3f-4ec5-973e-b0d8506f3bc7',
      test: false,
      asserted: { trust_framework: 'de_aml', assurance_level: 'substantial' },
      evidence: [
        {
          type: 'document',
          check_details: [
            { check_method: 'vpiruv', check_id: 'a1b2', organization: ISSUER, time: '2026-03-01T10:14:00.000Z' },
            { check_method: 'bvr', organization: 'Face Checks Ltd' },
          ],
          document_details: {
            type: 'passport',
            document_number: 'C01X00T47',
            date_of_issuance: '2020-01-10',
            date_of_expiry: '2030-01-09',
            issuer: { name: 'Stadt Köln', country_code: 'DEU' },
          },
        },
        { type: 'electronic_record', record: { type: 'bank_account', created_at: '2019-05-02T08:00:00.000Z', source: { name: 'Bank', country_code: 'DEU' } } },
      ],
    });
    expectValidVerifiedClaims(asStated(verification));
  });

  it("falls back to the upstream's auth time and a fresh process id, and leaves out overlong strings", () => {
    const set = upstreamSet();
    const v = set.verification as Record<string, unknown>;
    delete v.time;
    delete v.assurance_level;
    v.verification_process = 'p'.repeat(MAX_TEXT + 1);
    const passport = set.verification.evidence[0] as ReturnType<typeof upstreamSet>['verification']['evidence'][0] & { type: 'document' };
    passport.document_details!.document_number = 'n'.repeat(MAX_TEXT + 1);
    passport.check_details![0].check_method = 'm'.repeat(MAX_TEXT + 1);
    const { verification } = upstreamVerification(login(set));
    expect(verification.time).toBe(authTime.toISOString());
    expect(verification.process).toMatch(UUID);
    expect(verification.asserted).toEqual({ trust_framework: 'de_aml' });
    const [document] = verification.evidence;
    expect(document).toMatchObject({ type: 'document', check_details: [{ check_method: 'bvr' }] });
    expect(document.type === 'document' && document.document_details).not.toHaveProperty('document_number');
    expectValidVerifiedClaims(asStated(verification));
  });

  it('without verified_claims from the upstream: the login itself, an electronic record of the upstream', () => {
    const { verification, ignored } = upstreamVerification(login(undefined));
    expect(ignored).toBeUndefined();
    expect(verification.process).toMatch(UUID);
    expect(verification).toEqual({
      time: '2026-03-01T10:20:00.000Z',
      process: verification.process,
      test: false,
      evidence: [
        {
          type: 'electronic_record',
          check_details: [{ check_method: 'auth', check_id: `${verification.process}.upstream-login`, organization: ISSUER, time: '2026-03-01T10:20:00.000Z' }],
          record: { type: EID_LOGIN_RECORD, source: { name: ISSUER } },
        },
      ],
    });
    expect(verification).not.toHaveProperty('asserted');
    expect(upstreamVerification(login(undefined)).verification.process).not.toBe(verification.process);
    expectValidVerifiedClaims(asStated(verification));
  });

  it.each([
    ['a string', 'verified'],
    ['no trust framework', { verification: { evidence: [{ type: 'document' }] }, claims: {} }],
    ['an unknown evidence type', { ...upstreamSet(), verification: { ...upstreamSet().verification, evidence: [{ type: 'selfie' }] } }],
    ['a bad date', { ...upstreamSet(), verification: { ...upstreamSet().verification, time: '2026-02-30T10:00:00Z' } }],
    ['too many sets', [1, 2, 3, 4, 5].map(upstreamSet)],
    ['an oversized set', { ...upstreamSet(), claims: { note: 'x'.repeat(20_000) } }],
  ])('ignores malformed verified_claims (%s): the fallback, with the reason and no assertion', (_name, raw) => {
    const { verification, ignored } = upstreamVerification(login(raw));
    expect(ignored).toEqual(expect.any(String));
    expect(verification).not.toHaveProperty('asserted');
    expect(verification.evidence).toEqual([
      expect.objectContaining({ type: 'electronic_record', record: { type: EID_LOGIN_RECORD, source: { name: ISSUER } } }),
    ]);
    expect(verification.time).toBe(authTime.toISOString());
  });

  it('keeps the assertion but states the login as evidence when only evidence it cannot represent is left (vouch only)', () => {
    const set = upstreamSet();
    set.verification.evidence = [set.verification.evidence[1]];
    const { verification, ignored } = upstreamVerification(login(set));
    expect(ignored).toBeUndefined();
    expect(verification.asserted).toEqual({ trust_framework: 'de_aml', assurance_level: 'substantial' });
    expect(verification.process).toBe('f24c6f-6d3f-4ec5-973e-b0d8506f3bc7');
    expect(verification.evidence).toEqual([
      {
        type: 'electronic_record',
        check_details: [
          { check_method: 'auth', check_id: 'f24c6f-6d3f-4ec5-973e-b0d8506f3bc7.upstream-login', organization: ISSUER, time: authTime.toISOString() },
        ],
        record: { type: EID_LOGIN_RECORD, source: { name: ISSUER } },
      },
    ]);
    expectValidVerifiedClaims(asStated(verification));
  });

  it('drops an electronic record without a record, and a document evidence keeps only what it has', () => {
    const set = {
      verification: { trust_framework: 'eidas', evidence: [{ type: 'electronic_record', check_details: [{ check_method: 'auth' }] }, { type: 'document' }] },
      claims: {},
    };
    const { verification } = upstreamVerification({ ...login(set), test: true });
    expect(verification.evidence).toEqual([{ type: 'document' }]);
    expect(verification.test).toBe(true);
    expectValidVerifiedClaims(asStated(verification));
  });
});
