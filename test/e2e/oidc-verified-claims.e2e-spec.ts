import { exportJWK, generateKeyPair } from 'jose';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { expectValidVerifiedClaims, expectValidVerifiedClaimsRequest } from '../support/ida-schemas.js';
import { authorizationRequest, discover, loginWithTestEid, REDIRECT_URI } from '../support/oidc-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { SHELDON, specimenDocumentDir, verifierLogin } from '../support/verifier-flow.js';

/**
 * verified_claims (OpenID Connect for Identity Assurance 1.0) as a merchant asks for them with openid-client: by value
 * and inside a signed request object, from the test eID and from a document verification with the test app. Every
 * answer is checked against the OpenID Foundation's schema and against the plain claims of the same login.
 */
const DOCUMENT_REQUEST = {
  verification: {
    trust_framework: null,
    time: null,
    verification_process: null,
    evidence: [
      {
        type: { value: 'document' },
        check_details: [{ check_method: null, check_id: null, time: null }],
        document_details: { type: null, document_number: null, personal_number: null, date_of_expiry: null, issuer: { country_code: null } },
      },
    ],
  },
  claims: { given_name: null, family_name: null, birthdate: null, nationalities: null, place_of_birth: null, gender: null },
};
const CLAIMS = { id_token: { verified_claims: DOCUMENT_REQUEST }, userinfo: { verified_claims: DOCUMENT_REQUEST } };

/** The plain claims' values in the formats of verified_claims: the same person, said twice. */
function expectSamePerson(verified: Record<string, unknown>, plain: Record<string, unknown>, birthDate: string) {
  const claims = verified.claims as Record<string, unknown>;
  expect(claims.given_name).toBe(plain.given_name);
  expect(claims.family_name).toBe(plain.family_name);
  expect(claims.birthdate).toBe(birthDate);
  expect(plain.birthdate).toBe(birthDate.split('-').reverse().join('.'));
  expect(claims.nationalities).toEqual([plain.nationality]);
  expect(claims.gender).toBe(String(plain.gender).toLowerCase());
  const [document] = (verified.verification as { evidence: { document_details: Record<string, unknown> }[] }).evidence;
  expect(document!.document_details).toMatchObject({ document_number: plain.document_number, personal_number: plain.personal_number });
}

describe('verified_claims through openid-client', () => {
  let t: TestApp;
  let issuer: string;
  let admin: ReturnType<typeof adminClient>;

  beforeAll(async () => {
    t = await startTestApp();
    issuer = `${t.baseUrl}/oidc`;
    admin = adminClient(t.baseUrl, t.adminToken);
    expectValidVerifiedClaimsRequest(CLAIMS);
  });
  afterAll(() => t.close());

  it('test eID, claims by value: schema-valid in the ID token and in user-info, the plain claims restated, the test trust framework', async () => {
    const m = await admin.createMerchant({ name: 'Bank', redirect_uris: [REDIRECT_URI] });
    const config = await discover(issuer, m.client_id, m.client_secret);
    const req = await authorizationRequest(config, { claims: JSON.stringify(CLAIMS) });
    const { callback } = await loginWithTestEid(t.baseUrl, req.url);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: req.verifier,
      expectedState: req.state,
      expectedNonce: req.nonce,
    });
    const idToken = tokens.claims()!;
    expectValidVerifiedClaims(idToken);
    const verified = idToken.verified_claims as Record<string, unknown>;
    expect(verified.verification).toMatchObject({
      trust_framework: 'urn:svc:trust-framework:test',
      verification_process: expect.stringMatching(/^test-/),
      evidence: [{ type: 'document', document_details: { type: 'passport', issuer: { country_code: 'UTO' } } }],
    });
    expect(verified.verification).not.toHaveProperty('assurance_level');
    expectSamePerson(verified, idToken, '1974-08-12');

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
    expectValidVerifiedClaims(userinfo);
    expect(userinfo.verified_claims).toEqual(idToken.verified_claims);
  });

  it('test eID, claims inside a request object signed with the merchant key (JAR, RFC 9101)', async () => {
    const signing = await generateKeyPair('RS256', { extractable: true });
    const m = await admin.createMerchant({
      name: 'Signed bank',
      redirect_uris: [REDIRECT_URI],
      jwks: { keys: [{ ...(await exportJWK(signing.publicKey)), kid: 'merchant-sig-1', use: 'sig', alg: 'RS256' }] },
      request_object_signing_alg: 'RS256',
    });
    const config = await discover(issuer, m.client_id, m.client_secret);
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const state = client.randomState();
    const url = await client.buildAuthorizationUrlWithJAR(
      config,
      {
        redirect_uri: REDIRECT_URI,
        scope: 'openid profile ssn',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        claims: JSON.stringify({ id_token: { verified_claims: DOCUMENT_REQUEST } }),
      },
      { key: signing.privateKey, kid: 'merchant-sig-1' },
    );
    expect(url.searchParams.has('claims')).toBe(false);
    const { callback } = await loginWithTestEid(t.baseUrl, url, 'd-idcard');
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    const idToken = tokens.claims()!;
    expectValidVerifiedClaims(idToken);
    const verified = idToken.verified_claims as Record<string, unknown>;
    expect(verified.verification).toMatchObject({ evidence: [{ document_details: { type: 'idcard', issuer: { country_code: 'DEU' } } }] });
    expect((verified.claims as Record<string, unknown>).given_name).toBe(idToken.given_name);
  });

  it('document verification with the test app: the checks of the record, joined to its evidence report by the transaction id', async () => {
    const m = await admin.createMerchant({ name: 'KYC bank', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    const config = await discover(issuer, m.client_id, m.client_secret);
    const dir = await specimenDocumentDir(t.baseUrl, 'nor-adult', 'chip-authentication');
    const { claims } = await verifierLogin(
      t.baseUrl,
      config,
      { documentDir: dir, person: SHELDON },
      { scope: 'openid profile ssn', claims: JSON.stringify(CLAIMS) },
    );
    expectValidVerifiedClaims(claims);
    const verified = claims.verified_claims as { verification: Record<string, unknown>; claims: Record<string, unknown> };
    const tid = new URL(String(claims.auth_files_url)).searchParams.get('tid');
    expect(verified.verification.verification_process).toBe(tid);
    expect(verified.verification.trust_framework).toBe('urn:svc:trust-framework:test');
    const [evidence] = verified.verification.evidence as { check_details: { check_method: string; check_id: string }[] }[];
    expect(evidence!.check_details.map((c) => [c.check_method, c.check_id])).toEqual([
      ['vcrypt', `${tid}.passive-authentication`],
      ['vcrypt', `${tid}.chip-authentication`],
      ['bvr', `${tid}.face-match`],
      ['bvr', `${tid}.liveness`],
    ]);
    expect(verified.claims.given_name).toBe(claims.given_name);
    expect(verified.claims.family_name).toBe(claims.family_name);
  });
});
