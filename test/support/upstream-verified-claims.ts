import type { UpstreamUser } from './upstream-provider.js';

/*
 * What the upstream-OIDC end-to-end tests need for verified_claims (OpenID Connect for Identity Assurance 1.0): test
 * upstream users whose answers carry the upstream's own verified_claims (well formed, or not), and a merchant's claims
 * parameter that asks for them in the ID token and at user-info.
 */

/** The upstream's own verification of the person, as an identity-assurance upstream states it. */
export const UPSTREAM_VERIFICATION = {
  trust_framework: 'de_aml',
  assurance_level: 'substantial',
  time: '2026-03-01T10:15:30+01:00',
  verification_process: 'upstream-process-0815',
  evidence: [
    {
      type: 'document',
      check_details: [{ check_method: 'vpiruv', check_id: 'kyc-4711', time: '2026-03-01T10:14:00Z' }],
      document_details: {
        type: 'idcard',
        document_number: 'NO1234567',
        date_of_expiry: '2031-05-31',
        issuer: { name: 'Politiet', country_code: 'NOR', street_address: 'not for the merchant' },
      },
    },
    { type: 'vouch', attestation: { type: 'written_attestation' } },
  ],
};

/**
 * `person` twice more under other subjects: once with the upstream's verified_claims (whose claims are not the
 * person's plain claims, so a test sees which the broker states), once with a malformed one (no trust framework).
 */
export function usersWithVerifiedClaims(person: UpstreamUser): { verified: UpstreamUser; malformed: UpstreamUser } {
  const claims = { given_name: 'Not', family_name: 'Trusted', birthdate: '1900-01-01' };
  return {
    verified: { sub: `${person.sub}-verified`, claims: { ...person.claims, verified_claims: { verification: UPSTREAM_VERIFICATION, claims } } },
    malformed: {
      sub: `${person.sub}-malformed`,
      claims: { ...person.claims, verified_claims: { verification: { ...UPSTREAM_VERIFICATION, trust_framework: undefined }, claims } },
    },
  };
}

const CHECK = { check_method: null, check_id: null, organization: null, time: null };
const CLAIM_SET = {
  verification: {
    trust_framework: null,
    time: null,
    verification_process: null,
    // The schema of requests wants every member spelt out: an array of check templates, an object of details.
    evidence: [
      {
        type: { value: 'document' },
        check_details: [CHECK],
        document_details: { type: null, document_number: null, date_of_expiry: null, issuer: { name: null, country_code: null } },
      },
      { type: { value: 'electronic_record' }, check_details: [CHECK], record: { type: null, source: { name: null } } },
    ],
  },
  claims: { given_name: null, family_name: null, birthdate: null, nationalities: null },
};

/** The merchant's claims parameter: one claim set in the ID token, an array of one at user-info (IDA §5.7). */
export const VERIFIED_CLAIMS_REQUEST = { id_token: { verified_claims: CLAIM_SET }, userinfo: { verified_claims: [CLAIM_SET] } };
