import { parseCredentialRequestBody, credentialResponse, nonceResponse } from '@identity-broker/eu-wallet';
import { refusal } from './support/vci-wallet.js';

const ID = 'verified_document_identity';

/** OpenID4VCI 1.0 §8.2 request body pinned to 1.0, and the §7.2 / §8.3 answers. */
describe('OpenID4VCI credential request and responses', () => {
  const parse = (body: unknown) => parseCredentialRequestBody({ body, configurationIds: [ID] });

  it('reads credential_configuration_id and proofs.jwt', () => {
    expect(parse({ credential_configuration_id: ID, proofs: { jwt: ['a.b.c', 'd.e.f'] } })).toEqual({ configurationId: ID, jwts: ['a.b.c', 'd.e.f'] });
  });

  it("refuses the drafts' forms: proof, format, credential_identifier", async () => {
    expect(await refusal(() => parse({ credential_configuration_id: ID, proof: { proof_type: 'jwt', jwt: 'a.b.c' } }))).toMatch(
      /^invalid_credential_request: proof is a draft parameter/,
    );
    expect(await refusal(() => parse({ format: 'vc+sd-jwt', vct: 'x', proofs: { jwt: ['a.b.c'] } }))).toMatch(
      /^invalid_credential_request: format is a draft parameter/,
    );
    expect(await refusal(() => parse({ credential_identifier: 'x', proofs: { jwt: ['a.b.c'] } }))).toMatch(
      /^invalid_credential_request: credential_identifier/,
    );
  });

  it('refuses an unknown configuration, no configuration, no proofs, other proof types, encryption, a non-object', async () => {
    expect(await refusal(() => parse({ credential_configuration_id: 'pid', proofs: { jwt: ['a.b.c'] } }))).toBe(
      'unknown_credential_configuration: credential_configuration_id is not one this issuer offers',
    );
    expect(await refusal(() => parse({ proofs: { jwt: ['a.b.c'] } }))).toBe('invalid_credential_request: credential_configuration_id is missing');
    expect(await refusal(() => parse({ credential_configuration_id: ID }))).toBe('invalid_proof: proofs is missing');
    expect(await refusal(() => parse({ credential_configuration_id: ID, proofs: { attestation: ['a.b.c'] } }))).toBe(
      'invalid_proof: proofs must hold exactly the jwt proof type',
    );
    expect(await refusal(() => parse({ credential_configuration_id: ID, proofs: { jwt: ['a.b.c'], di_vp: [] } }))).toBe(
      'invalid_proof: proofs must hold exactly the jwt proof type',
    );
    expect(await refusal(() => parse({ credential_configuration_id: ID, proofs: { jwt: 'a.b.c' } }))).toBe('invalid_proof: proofs.jwt is not an array');
    expect(
      await refusal(() => parse({ credential_configuration_id: ID, proofs: { jwt: ['a.b.c'] }, credential_response_encryption: { jwk: {}, enc: 'A128GCM' } })),
    ).toMatch(/^invalid_encryption_parameters: /);
    expect(await refusal(() => parse([]))).toBe('invalid_credential_request: the credential request is not a JSON object');
    expect(await refusal(() => parse({ credential_configuration_id: ID, proofs: { jwt: [42] } }))).toMatch(
      /^invalid_credential_request: the credential request is not valid: /,
    );
  });

  it('answers {c_nonce} and {credentials: [{credential}]}', () => {
    expect(nonceResponse('n-1')).toEqual({ c_nonce: 'n-1' });
    expect(credentialResponse(['x~', 'y~'])).toEqual({ credentials: [{ credential: 'x~' }, { credential: 'y~' }] });
    expect(() => credentialResponse([])).toThrow();
  });
});
