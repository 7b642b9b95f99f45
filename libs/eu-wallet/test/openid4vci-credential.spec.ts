import { createHash, X509Certificate, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { verifySDJWT } from '@meeco/sd-jwt';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { compactVerify } from 'jose';
import {
  issueVerifiedIdentityCredential,
  type IssueVerifiedIdentityCredentialInput,
  statusListToken,
  VERIFIED_IDENTITY_CLAIM_NAMES,
  type VerifiedIdentityClaims,
  type CredentialSigner,
  type HolderJwk,
  proofNonce,
  verifyKeyProofs,
  credentialResponse,
  verifySdJwtVcPresentation,
  StatusListChecker,
  createTestSigner,
  type TestSigner,
} from '@identity-broker/eu-wallet';
import { C_NONCE, ISSUER as WALLET_AUDIENCE, keyProof, walletKey } from './support/vci-wallet.js';
import { AUDIENCE, NONCE, decodeSegment, holderKeys, makeDisclosure, outcome, present } from './sd-jwt-holder.js';

const ISSUER = 'https://broker.test.invalid/vci';
const VCT = 'https://broker.test.invalid/vct/verified-document-identity';
const STATUS_URI = `${ISSUER}/status-lists/1`;

/** Every claim of the contract, age_equal_or_over with all six ages. */
const CLAIMS: VerifiedIdentityClaims = {
  document_type: 'PASSPORT',
  issuing_country: 'UTO',
  document_number: 'L01X00T47',
  personal_number: '1984012612345',
  date_of_expiry: '2031-05-05',
  primary_identifier: 'MUSTERMANN',
  secondary_identifier: 'ERIKA',
  name: 'ERIKA MUSTERMANN',
  birthdate: '1984-01-26',
  nationality: 'UTO',
  gender: 'FEMALE',
  place_of_birth: 'BERLIN',
  age_equal_or_over: { '12': true, '14': true, '16': true, '18': true, '21': true, '65': false },
  facematch_level: 7,
  verified_at: '2026-11-20',
  assurance: 'high',
  verification_trust_framework: 'eidas',
  verification_evidence_type: 'document',
  verification_time: '2026-11-20T09:41:07Z',
};

const sha256 = (data: string | ArrayBuffer) =>
  new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? Buffer.from(data) : Buffer.from(data))
      .digest(),
  );
const es256Verify = (key: KeyObject) => (data: string, signature: string) =>
  cryptoVerify('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
/** The public key of the x5c leaf of a JWT header: what a verifier trusts after checking the chain. */
const x5cLeafKey = (jwt: string) => new X509Certificate(Buffer.from((decodeSegment(jwt.split('.')[0]).x5c as string[])[0], 'base64')).publicKey;

/** The issued SD-JWT VC (SD-JWT VC draft; RFC 9901), checked by other code than ours: @sd-jwt, @meeco, the verifier. */
describe('OpenID4VCI: the verified identity credential and its status list', () => {
  let pki: TestSigner;
  let signer: CredentialSigner;
  let holder: { publicKey: KeyObject; privateKey: KeyObject };
  let input: IssueVerifiedIdentityCredentialInput;
  let credential: string;
  const statuses = new Uint8Array(64);
  statuses[6] = 1;
  const token = () => statusListToken({ signer, uri: STATUS_URI, statuses, bits: 1, ttlSeconds: 300, expiresInSeconds: 86_400, now: new Date() });

  beforeAll(async () => {
    // As the service's signer certificates: the issuer identifier as a SAN URI, for the credential's iss (SD-JWT VC draft).
    pki = await createTestSigner({ rootName: 'Customer-test Credential Issuer CA', signerName: 'Test credential issuer', uri: ISSUER });
    // The contract: x5c is the leaf (and intermediates), never the root.
    signer = { privateKey: pki.privateKey, chain: [pki.chain[0]], kid: 'signer-1' };
    holder = holderKeys();
    input = {
      signer,
      credentialIssuer: ISSUER,
      vct: VCT,
      claims: CLAIMS,
      holderJwk: holder.publicKey.export({ format: 'jwk' }) as HolderJwk,
      status: { uri: STATUS_URI, idx: 5 },
      expiresAt: new Date('2027-05-05T13:14:15Z'),
    };
    credential = await issueVerifiedIdentityCredential(input);
  });

  it('has the contract header and clear payload: typ dc+sd-jwt, ES256, kid, x5c leaf only; iss, vct, exp at 00:00 UTC, cnf, status; no iat, no nbf', () => {
    expect(credential.endsWith('~')).toBe(true);
    const [h, p] = credential.split('~')[0].split('.');
    expect(decodeSegment(h)).toEqual({ typ: 'dc+sd-jwt', alg: 'ES256', kid: 'signer-1', x5c: [Buffer.from(pki.chain[0]).toString('base64')] });
    const payload = decodeSegment(p);
    expect(Object.keys(payload).sort()).toEqual(['_sd', '_sd_alg', 'cnf', 'exp', 'iss', 'status', 'vct']);
    expect(payload).toMatchObject({
      iss: ISSUER,
      vct: VCT,
      exp: Date.UTC(2027, 4, 5) / 1000,
      cnf: { jwk: input.holderJwk },
      status: { status_list: { idx: 5, uri: STATUS_URI } },
      _sd_alg: 'sha-256',
    });
    // The digests are sorted (RFC 9901 §4.2.4.1 leaves the order free; sorted hides the claims' order).
    const sd = payload._sd as string[];
    expect(sd).toEqual([...sd].sort());
  });

  it('discloses each contract claim on its own, each age on its own, with 128-bit salts', () => {
    const disclosures = credential
      .split('~')
      .slice(1, -1)
      .map((d) => JSON.parse(Buffer.from(d, 'base64url').toString('utf8')) as [string, string, unknown]);
    const names = disclosures.map(([, name]) => name);
    expect(names.filter((n) => !/^\d+$/.test(n)).sort()).toEqual([...VERIFIED_IDENTITY_CLAIM_NAMES].sort());
    expect(names.filter((n) => /^\d+$/.test(n)).sort()).toEqual(['12', '14', '16', '18', '21', '65']);
    for (const [salt] of disclosures) expect(Buffer.from(salt, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(new Set(disclosures.map(([salt]) => salt)).size).toBe(disclosures.length);
  });

  it("verifies with @sd-jwt/sd-jwt-vc's own verifier (x5c leaf key), status list included; a revoked index fails there", async () => {
    const verifier = (jwt: string) => es256Verify(x5cLeafKey(jwt));
    const library = (status: string) =>
      new SDJwtVcInstance({ hasher: sha256, verifier: verifier(credential), statusListFetcher: async () => status, statusVerifier: verifier(status) });
    const { payload } = await library(token()).verify(credential);
    expect(payload).toMatchObject({ ...CLAIMS, iss: ISSUER, vct: VCT });
    const revoked = await issueVerifiedIdentityCredential({ ...input, status: { uri: STATUS_URI, idx: 6 } });
    await expect(library(token()).verify(revoked)).rejects.toThrow(/Status is not valid/);
  });

  it('verifies with @meeco/sd-jwt (an SD-JWT implementation of its own), every claim back', async () => {
    const claims = await verifySDJWT(
      credential,
      async (jwt) => (await compactVerify(jwt, x5cLeafKey(jwt))).payload.length > 0,
      async () => (data: string) => createHash('sha256').update(data).digest('base64url'),
    );
    expect(claims).toMatchObject({ ...CLAIMS, iss: ISSUER, vct: VCT });
  });

  it("presents to the service's own SD-JWT VC verifier, trusting the root; a changed disclosure is refused", async () => {
    const verify = (presentation: string) =>
      verifySdJwtVcPresentation({ presentation, trustAnchors: [pki.root], acceptedVcts: [VCT], nonce: NONCE, audience: AUDIENCE, now: new Date() });
    const presentation = await present(credential, { paths: ['$.name', '$.age_equal_or_over.18', '$.assurance'], holderKey: holder.privateKey });
    const result = await verify(presentation);
    expect(result.claims).toEqual({
      iss: ISSUER,
      vct: VCT,
      exp: Date.UTC(2027, 4, 5) / 1000,
      name: CLAIMS.name,
      age_equal_or_over: { '18': true },
      assurance: 'high',
    });
    expect(result.status).toEqual({ uri: STATUS_URI, idx: 5 });

    // The name disclosure replaced by one with another value: its digest is in no _sd, so the verifier refuses it.
    const changed = await present(credential, {
      paths: ['$.name'],
      holderKey: holder.privateKey,
      mutate: (jwt, ds) => [jwt, ds.map((d) => (JSON.parse(Buffer.from(d, 'base64url').toString())[1] === 'name' ? makeDisclosure('name', 'MALLORY') : d))],
    });
    expect(await outcome(() => verify(changed))).toMatch(/^invalid_signature: /);
  });

  it('makes a Status List Token that @sd-jwt/jwt-status-list decodes and the service checker reads', async () => {
    const jwt = token();
    expect(decodeSegment(jwt.split('.')[0])).toEqual({
      alg: 'ES256',
      typ: 'statuslist+jwt',
      kid: 'signer-1',
      x5c: [Buffer.from(pki.chain[0]).toString('base64')],
    });
    const payload = decodeSegment(jwt.split('.')[1]);
    expect(payload).toMatchObject({ sub: STATUS_URI, ttl: 300, status_list: { bits: 1 } });
    expect((payload.exp as number) - (payload.iat as number)).toBe(86_400);
    const list = getListFromStatusListJWT(jwt);
    expect(Array.from({ length: 64 }, (_, i) => list.getStatus(i))).toEqual(Array.from(statuses));
    const checker = new StatusListChecker({ fetchStatusList: async () => jwt, trustAnchors: [pki.root], now: () => new Date() });
    const issuedBy = { leaf: new X509Certificate(pki.chain[0]), anchor: new X509Certificate(pki.root), format: 'sd-jwt' as const, iss: ISSUER };
    await expect(checker.check({ uri: STATUS_URI, idx: 5 }, issuedBy)).resolves.toBeUndefined();
    expect(await outcome(() => checker.check({ uri: STATUS_URI, idx: 6 }, issuedBy))).toBe('revoked: the credential is revoked (status INVALID)');
    expect(() =>
      statusListToken({ signer, uri: STATUS_URI, statuses: Uint8Array.of(0, 2), bits: 1, ttlSeconds: 1, expiresInSeconds: 1, now: new Date() }),
    ).toThrow('a status does not fit in 1 bit(s)');
  });

  it('leaves absent claims out and refuses claims outside the contract or of the wrong type, naming the claim and not its value', async () => {
    const few = await issueVerifiedIdentityCredential({ ...input, claims: { name: 'ERIKA MUSTERMANN', age_equal_or_over: { '18': true } } });
    expect(few.split('~').slice(1, -1)).toHaveLength(3);
    await expect(issueVerifiedIdentityCredential({ ...input, claims: { ...CLAIMS, given_name: 'x' } as never })).rejects.toThrow(
      'claim given_name is not a claim of the verified identity credential',
    );
    await expect(issueVerifiedIdentityCredential({ ...input, claims: { birthdate: '26.01.1984' } })).rejects.toThrow(
      /^claim birthdate does not have the value type the contract gives$/,
    );
    await expect(issueVerifiedIdentityCredential({ ...input, claims: { age_equal_or_over: { '17': true } as never } })).rejects.toThrow(/age_equal_or_over/);
    await expect(issueVerifiedIdentityCredential({ ...input, claims: { facematch_level: 10 } })).rejects.toThrow(/facematch_level/);
    // The evidence summary: a date-time to the second in UTC, one evidence type, a framework identifier without spaces.
    for (const verification_time of ['2026-11-20', '2026-11-20T09:41:07.123Z', '2026-11-20T09:41:07+01:00'])
      await expect(issueVerifiedIdentityCredential({ ...input, claims: { verification_time } })).rejects.toThrow(/^claim verification_time does not/);
    await expect(issueVerifiedIdentityCredential({ ...input, claims: { verification_evidence_type: 'electronic_record' as never } })).rejects.toThrow(
      /verification_evidence_type/,
    );
    await expect(issueVerifiedIdentityCredential({ ...input, claims: { verification_trust_framework: 'de aml' } })).rejects.toThrow(
      /verification_trust_framework/,
    );
    await expect(issueVerifiedIdentityCredential({ ...input, signer: { ...signer, chain: [] } })).rejects.toThrow(/no certificate chain/);
  });

  it('issues one credential per key proof of a batch: each bound to its key, nothing shared that would link them', async () => {
    expect(WALLET_AUDIENCE).toBe(ISSUER);
    const keys = [walletKey(), walletKey(), walletKey()];
    const jwts = await Promise.all(keys.map((k) => keyProof(k)));
    const jwks = await verifyKeyProofs({ jwts, credentialIssuer: ISSUER, expectedNonce: proofNonce(jwts), now: new Date(), maxProofs: 10 });
    expect(proofNonce(jwts)).toBe(C_NONCE);
    const issued = await Promise.all(
      jwks.map((holderJwk, i) => issueVerifiedIdentityCredential({ ...input, holderJwk, status: { uri: STATUS_URI, idx: 10 + i } })),
    );
    const answer = credentialResponse(issued);
    expect(answer.credentials).toHaveLength(3);
    const payloads = issued.map((c) => decodeSegment(c.split('.')[1]));
    expect(payloads.map((p) => (p.cnf as { jwk: { x: string } }).jwk.x)).toEqual(keys.map((k) => k.jwk.x));
    // Digests and salts differ across the batch; the same exp (a day) and no iat.
    const digests = payloads.flatMap((p) => p._sd as string[]);
    expect(new Set(digests).size).toBe(digests.length);
    expect(new Set(payloads.map((p) => p.exp)).size).toBe(1);
  });
});
