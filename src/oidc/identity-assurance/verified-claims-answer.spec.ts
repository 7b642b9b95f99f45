import { expectValidVerifiedClaims, requestExample } from '../../../test/support/ida-schemas.js';
import { answerClaimSet } from './verified-claims-answer.js';
import { verifiedClaimsSets } from './verified-claims-request.js';

const NOW = new Date('2026-11-29T12:00:00Z');
/** What a passed document verification states (production, operator configured eIDAS, level high earned). */
const STATED = {
  trust_framework: 'eidas',
  assurance_level: 'high',
  time: '2026-11-29T11:00:00Z',
  verification_process: 'a1b2c3',
  evidence: [
    {
      type: 'document',
      check_details: [
        { check_method: 'vcrypt', check_id: 'a1b2c3.passive-authentication', time: '2026-11-29T11:00:00Z' },
        { check_method: 'bvr', check_id: 'a1b2c3.face-match', time: '2026-11-29T11:00:00Z' },
      ],
      document_details: { type: 'passport', document_number: 'FH7654321', date_of_expiry: '2033-06-01', issuer: { country_code: 'NOR', country: 'Norway' } },
    },
  ],
};
const CLAIMS = { given_name: 'KÅRE', family_name: 'NORDMANN', birthdate: '1980-01-15', nationalities: ['NOR'] };

/** The answers to every claim set of a request, as the ID token or user-info carries them. */
function answer(claims: Record<string, unknown>, stated: Record<string, unknown> = STATED, available: Record<string, unknown> = CLAIMS, now = NOW) {
  const target = (claims.id_token ?? claims.userinfo) as Record<string, unknown>;
  return verifiedClaimsSets(target, 'claims').flatMap((set) => answerClaimSet(set, stated, available, now) ?? []);
}
const withVerification = (verification: Record<string, unknown>, claims: Record<string, unknown> = { given_name: null }) => ({
  userinfo: { verified_claims: { verification, claims } },
});

describe('answering verified_claims (IDA 1.0 §5.4-5.8), with the protocol examples as the merchant requests', () => {
  it('gives the trust framework and the claims asked for, nothing more (simple_id_token)', () => {
    const [set] = answer(requestExample('simple_id_token'));
    expect(set).toEqual({ verification: { trust_framework: 'eidas' }, claims: { family_name: 'NORDMANN' } });
    expectValidVerifiedClaims({ verified_claims: set });
  });

  it('adds the members of verification the merchant names, and only those (verification: trust_framework, time)', () => {
    const [set] = answer(requestExample('verification'));
    expect(set!.verification).toEqual({ trust_framework: 'eidas', time: '2026-11-29T11:00:00Z' });
    expectValidVerifiedClaims({ verified_claims: set });
  });

  it('value: the whole set is omitted under another trust framework, kept under its own (verification_aml, de_aml)', () => {
    expect(answer(requestExample('verification_aml'))).toEqual([]);
    const [set] = answer(requestExample('verification_aml'), { ...STATED, trust_framework: 'de_aml', evidence: [] });
    expect(set).toBeUndefined();
  });

  it('values: kept when the framework is one of them (verification_claims_different_trust_frameworks)', () => {
    const request = requestExample('verification_claims_different_trust_frameworks');
    expect(answer(request)).toEqual([]);
    const [set] = answer(request, { ...STATED, trust_framework: 'silver' });
    expect(set!.verification).toMatchObject({ trust_framework: 'silver' });
    expectValidVerifiedClaims({ verified_claims: set });
  });

  it('an array of sets is answered set by set: each kept or omitted on its own constraints (verification_claims_by_trust_frameworks)', () => {
    const request = requestExample('verification_claims_by_trust_frameworks');
    expect(answer(request)).toEqual([
      { verification: { trust_framework: 'eidas', assurance_level: 'high' }, claims: { given_name: 'KÅRE', family_name: 'NORDMANN' } },
      { verification: { trust_framework: 'eidas', assurance_level: 'high' }, claims: { birthdate: '1980-01-15' } },
    ]);
    const substantial = answer(request, { ...STATED, assurance_level: 'substantial' });
    expect(substantial).toEqual([{ verification: { trust_framework: 'eidas', assurance_level: 'substantial' }, claims: { birthdate: '1980-01-15' } }]);
    expectValidVerifiedClaims({ verified_claims: substantial });
  });

  it('evidence: filtered by type and shown as the template asks (verification_deeper, check_method pipp never matches ours)', () => {
    expect(answer(requestExample('verification_deeper'))).toEqual([]);
    const [set] = answer(
      withVerification({ trust_framework: null, evidence: [{ type: { value: 'document' }, check_details: [{ check_method: { value: 'bvr' } }] }] }),
    );
    expect(set!.verification.evidence).toEqual([{ type: 'document', check_details: [{ check_method: 'bvr' }] }]);
    expect(answer(withVerification({ trust_framework: null, evidence: [{ type: { value: 'electronic_record' } }] }))).toEqual([]);
  });

  it('document details: type filtered with values, members shown as asked (verification_document)', () => {
    const [set] = answer(requestExample('verification_document'));
    expectValidVerifiedClaims({ verified_claims: set });
    expect(
      answer(withVerification({ trust_framework: null, evidence: [{ type: { value: 'document' }, document_details: { type: { values: ['idcard'] } } }] })),
    ).toEqual([]);
    const [passport] = answer(
      withVerification({
        trust_framework: null,
        evidence: [{ type: { value: 'document' }, document_details: { type: { values: ['idcard', 'passport'] }, issuer: { country_code: null } } }],
      }),
    );
    expect(passport!.verification.evidence).toEqual([{ type: 'document', document_details: { type: 'passport', issuer: { country_code: 'NOR' } } }]);
  });

  it('max_age on the verification time: kept within it, the whole set omitted beyond it (verification_max_age)', () => {
    const request = withVerification({ trust_framework: null, time: { max_age: 3600 } });
    expect(answer(request)).toHaveLength(1);
    expect(answer(request, STATED, CLAIMS, new Date('2026-11-29T12:00:01Z'))).toEqual([]);
    expect(answer(requestExample('verification_max_age'))).toEqual([]); // jp_aml: another framework
  });

  it('max_age on a date counts from its last second (date_of_expiry)', () => {
    const request = withVerification({
      trust_framework: null,
      evidence: [{ type: { value: 'document' }, document_details: { date_of_expiry: { max_age: 0 } } }],
    });
    expect(answer(request, STATED, CLAIMS, new Date('2033-06-01T23:59:59Z'))).toHaveLength(1);
    expect(answer(request, STATED, CLAIMS, new Date('2033-06-02T00:00:01Z'))).toEqual([]);
  });

  it('essential and purpose change nothing in what is delivered (essential, §5.8 "independent from the use of essential")', () => {
    const [set] = answer(requestExample('essential'));
    expect(set!.claims).toEqual({ given_name: 'KÅRE', family_name: 'NORDMANN', birthdate: '1980-01-15' });
    const [withPurpose] = answer(withVerification({ trust_framework: null }, { given_name: { essential: true, purpose: 'To open your account' } }));
    expect(withPurpose!.claims).toEqual({ given_name: 'KÅRE' });
  });

  it('claims the login does not have, or that fail their own value, are omitted; a set left without claims is omitted', () => {
    const [set] = answer(withVerification({ trust_framework: null }, { given_name: null, email: null, family_name: { value: 'OTHER' } }));
    expect(set!.claims).toEqual({ given_name: 'KÅRE' });
    expect(answer(withVerification({ trust_framework: null }, { email: null }))).toEqual([]);
    expect(answer(withVerification({ trust_framework: null }), STATED, {})).toEqual([]);
  });

  it('a constraint on something the login cannot state omits the set (assurance level where none is stated)', () => {
    const { assurance_level: _, ...noLevel } = STATED;
    expect(answer(withVerification({ trust_framework: null, assurance_level: { value: 'high' } }), noLevel)).toEqual([]);
    const [unconstrained] = answer(withVerification({ trust_framework: null, assurance_level: null }), noLevel);
    expect(unconstrained!.verification).toEqual({ trust_framework: 'eidas' });
  });
});
