import { exportJWK, generateKeyPair } from 'jose';
import * as client from 'openid-client';
import { adminClient } from '../support/admin-client.js';
import { expectValidVerifiedClaims, expectValidVerifiedClaimsRequest } from '../support/ida-schemas.js';
import { authorizationRequest, discover, firstResponse, loginWithTestEid, type PkceRequest, REDIRECT_URI } from '../support/oidc-flow.js';
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
  afterAll(() => t?.close());

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

  /** A merchant with a registered RS256 key, and an authorization request whose parameters travel in a request object it signed (JAR, RFC 9101). */
  async function signedRequestMerchant(name: string, eidSchemes?: string[]) {
    const signing = await generateKeyPair('RS256', { extractable: true });
    const m = await admin.createMerchant({
      name,
      redirect_uris: [REDIRECT_URI],
      jwks: { keys: [{ ...(await exportJWK(signing.publicKey)), kid: 'merchant-sig-1', use: 'sig', alg: 'RS256' }] },
      request_object_signing_alg: 'RS256',
      ...(eidSchemes ? { eid_schemes: eidSchemes } : {}),
    });
    const config = await discover(issuer, m.client_id, m.client_secret);
    const request = async (): Promise<PkceRequest> => {
      const verifier = client.randomPKCECodeVerifier();
      const nonce = client.randomNonce();
      const state = client.randomState();
      const parameters = {
        redirect_uri: REDIRECT_URI,
        scope: 'openid profile ssn',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        claims: JSON.stringify({ id_token: { verified_claims: DOCUMENT_REQUEST } }),
      };
      const url = await client.buildAuthorizationUrlWithJAR(config, parameters, { key: signing.privateKey, kid: 'merchant-sig-1' });
      expect(url.searchParams.has('claims')).toBe(false);
      return { url, state, nonce, verifier };
    };
    return { config, request };
  }

  it('test eID, claims inside a request object signed with the merchant key (JAR, RFC 9101)', async () => {
    const { config, request } = await signedRequestMerchant('Signed bank');
    const req = await request();
    const { callback } = await loginWithTestEid(t.baseUrl, req.url, 'd-idcard');
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: req.verifier,
      expectedState: req.state,
      expectedNonce: req.nonce,
    });
    const idToken = tokens.claims()!;
    expectValidVerifiedClaims(idToken);
    const verified = idToken.verified_claims as Record<string, unknown>;
    expect(verified.verification).toMatchObject({ evidence: [{ document_details: { type: 'idcard', issuer: { country_code: 'DEU' } } }] });
    expect((verified.claims as Record<string, unknown>).given_name).toBe(idToken.given_name);
  });

  it('document verification with the test app, claims inside a signed request object', async () => {
    const { config, request } = await signedRequestMerchant('Signed KYC bank', ['document-verifier']);
    const dir = await specimenDocumentDir(t.baseUrl, 'nor-adult', 'active-authentication');
    const { claims } = await verifierLogin(t.baseUrl, config, { documentDir: dir, person: SHELDON }, {}, await request());
    expectValidVerifiedClaims(claims);
    const tid = new URL(String(claims.auth_files_url)).searchParams.get('tid');
    const [evidence] = (claims.verified_claims as { verification: { evidence: { check_details: { check_id: string }[] }[] } }).verification.evidence;
    expect(evidence!.check_details.map((c) => c.check_id)).toContain(`${tid}.active-authentication`);
    expectSamePerson(claims.verified_claims as Record<string, unknown>, claims, '1980-01-15');
  });

  it('document verification with the test app: the checks of the record, joined to its evidence report by the transaction id', async () => {
    const m = await admin.createMerchant({ name: 'KYC bank', redirect_uris: [REDIRECT_URI], eid_schemes: ['document-verifier'] });
    const config = await discover(issuer, m.client_id, m.client_secret);
    const dir = await specimenDocumentDir(t.baseUrl, 'nor-adult', 'chip-authentication');
    const { claims, tokens } = await verifierLogin(
      t.baseUrl,
      config,
      { documentDir: dir, person: SHELDON },
      { scope: 'openid profile ssn', claims: JSON.stringify(CLAIMS) },
    );
    expectValidVerifiedClaims(claims);
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expectValidVerifiedClaims(userinfo);
    expect(userinfo.verified_claims).toEqual(claims.verified_claims);
    expectSamePerson(claims.verified_claims as Record<string, unknown>, claims, '1980-01-15');
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

  it('says in its metadata what this deployment can state (IDA 1.0 §7): the test framework only, in customer-test', async () => {
    const metadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      claims_parameter_supported: true,
      verified_claims_supported: true,
      trust_frameworks_supported: ['urn:svc:trust-framework:test'],
      evidence_supported: ['document', 'electronic_record'],
      electronic_records_supported: expect.arrayContaining(['eu.europa.ec.eudi.pid.1', 'org.iso.18013.5.1.mDL', 'urn:svc:record-type:eid-login']),
      documents_supported: expect.arrayContaining(['idcard', 'passport', 'residence_permit', 'driving_permit']),
      documents_check_methods_supported: ['bvr', 'vcrypt'],
      claims_in_verified_claims_supported: expect.arrayContaining(['given_name', 'family_name', 'birthdate', 'nationalities']),
    });
    expect(metadata.claims_supported).toContain('verified_claims');
  });

  describe('what a merchant gets is bounded by what it asked and what its scopes allow', () => {
    let config: client.Configuration;
    const login = async (scope: string, claims?: unknown) => {
      const req = await authorizationRequest(config, { scope, ...(claims ? { claims: JSON.stringify(claims) } : {}) });
      const { callback } = await loginWithTestEid(t.baseUrl, req.url);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: req.verifier,
        expectedState: req.state,
        expectedNonce: req.nonce,
      });
      return { idToken: tokens.claims()!, userinfo: await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub) };
    };
    beforeAll(async () => {
      const m = await admin.createMerchant({ name: 'Minimal bank', redirect_uris: [REDIRECT_URI] });
      config = await discover(issuer, m.client_id, m.client_secret);
    });

    it('nothing when not requested', async () => {
      const { idToken, userinfo } = await login('openid profile ssn');
      expect(idToken).not.toHaveProperty('verified_claims');
      expect(userinfo).not.toHaveProperty('verified_claims');
    });

    it('where it was requested only: the ID token, not user-info', async () => {
      const { idToken, userinfo } = await login('openid profile', { id_token: { verified_claims: DOCUMENT_REQUEST } });
      expect(idToken).toHaveProperty('verified_claims');
      expect(userinfo).not.toHaveProperty('verified_claims');
    });

    it('without ssn no personal number, in the evidence as in the plain claims', async () => {
      const { idToken } = await login('openid profile', CLAIMS);
      expectValidVerifiedClaims(idToken);
      expect(idToken).not.toHaveProperty('personal_number');
      const [document] = (idToken.verified_claims as { verification: { evidence: { document_details: object }[] } }).verification.evidence;
      expect(document!.document_details).not.toHaveProperty('personal_number');
      expect(document!.document_details).toHaveProperty('document_number');
    });

    it('without profile no person claims, so the set is omitted (IDA §5.8) and the login still succeeds', async () => {
      const { idToken } = await login('openid', CLAIMS);
      expect(idToken).not.toHaveProperty('given_name');
      expect(idToken).not.toHaveProperty('verified_claims');
      expect(idToken.document_number).toBe('L898902C3');
    });

    it('a framework the service does not state: the set is omitted, no error (IDA §5.8)', async () => {
      const { idToken } = await login('openid profile', {
        id_token: { verified_claims: { ...DOCUMENT_REQUEST, verification: { trust_framework: { value: 'eidas' } } } },
      });
      expect(idToken).not.toHaveProperty('verified_claims');
      expect(idToken.given_name).toBeDefined();
    });

    it.each([
      [
        'claims without any claim',
        { id_token: { verified_claims: { verification: { trust_framework: null }, claims: {} } } },
        /claims must be an object naming at least one claim/,
      ],
      ['no trust_framework', { id_token: { verified_claims: { verification: {}, claims: { given_name: null } } } }, /trust_framework is required/],
      [
        'a purpose of two characters',
        { userinfo: { verified_claims: { verification: { trust_framework: null }, claims: { given_name: { purpose: 'ok' } } } } },
        /purpose/,
      ],
    ])('a malformed request (%s) is invalid_request at the authorization endpoint, named', async (_name, claims, description) => {
      const req = await authorizationRequest(config, { scope: 'openid profile', claims: JSON.stringify(claims) });
      const page = await firstResponse(t.baseUrl, req.url);
      const location = new URL(page.location!);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('error_description')).toMatch(description);
    });

    it('a malformed request in a pushed authorization request is refused there, before any login', async () => {
      const claims = { id_token: { verified_claims: [] } };
      await expect(
        client.buildAuthorizationUrlWithPAR(config, {
          redirect_uri: REDIRECT_URI,
          scope: 'openid',
          code_challenge: 'x'.repeat(43),
          code_challenge_method: 'S256',
          state: 's',
          claims: JSON.stringify(claims),
        }),
      ).rejects.toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/must not be an empty array/) });
    });
  });
});
