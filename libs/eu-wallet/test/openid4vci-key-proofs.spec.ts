import { createHash } from 'node:crypto';
import { Openid4vciIssuer, Openid4vciVersion, type IssuerMetadataResult } from '@openid4vc/openid4vci';
import { jwtSignerFromJwt } from '@openid4vc/oauth2';
import { proofNonce, verifyKeyProofs, type VerifyKeyProofsInput, jwkThumbprint, oneLine } from '@identity-broker/eu-wallet';
import { C_NONCE, ISSUER, forgeHeader, hs256, keyProof, refusal, unsecured, walletKey, type WalletKey } from './support/vci-wallet.js';

/** OpenID4VCI 1.0 §8.2 `proofs.jwt` and Appendix F.1: the checks, and the gaps of @openid4vc/openid4vci they close. */
describe('OpenID4VCI key proofs', () => {
  const now = new Date();
  let keys: WalletKey[];
  const verify = (jwts: unknown, overrides: Partial<VerifyKeyProofsInput> = {}) =>
    verifyKeyProofs({ jwts, credentialIssuer: ISSUER, expectedNonce: C_NONCE, now, maxProofs: 10, ...overrides });
  const ago = (s: number) => new Date(now.getTime() - s * 1000);

  beforeAll(() => {
    keys = [walletKey('ES256'), walletKey('ES384'), walletKey('ES512'), walletKey('EdDSA')];
  });

  it('returns the holder keys in the order of the proofs, public members only (ES256, ES384, ES512, EdDSA)', async () => {
    const jwts = await Promise.all(keys.map((k) => keyProof(k, { now })));
    const jwks = await verify(jwts);
    expect(jwks.map((j) => jwkThumbprint(j))).toEqual(keys.map((k) => jwkThumbprint(k.jwk as never)));
    expect(jwks[0]).toEqual({ kty: 'EC', crv: 'P-256', x: keys[0].jwk.x, y: keys[0].jwk.y });
    expect(jwks[3]).toEqual({ kty: 'OKP', crv: 'Ed25519', x: keys[3].jwk.x });
    expect(proofNonce(jwts)).toBe(C_NONCE);
  });

  it('accepts iat at the edges of the window (300 s back, 60 s ahead) and refuses beyond', async () => {
    expect(await refusal(async () => verify([await keyProof(keys[0], { now: ago(299) })]))).toBe('accepted');
    expect(await refusal(async () => verify([await keyProof(keys[0], { now: ago(-59) })]))).toBe('accepted');
    expect(await refusal(async () => verify([await keyProof(keys[0], { now: ago(301) })]))).toBe('invalid_proof: key proof 0 iat is too old');
    expect(await refusal(async () => verify([await keyProof(keys[0], { now: ago(-61) })]))).toBe('invalid_proof: key proof 0 iat is in the future');
    expect(await refusal(async () => verify([await keyProof(keys[0], { dropPayload: ['iat'] })]))).toMatch(/^invalid_proof: key proof 0/);
    expect(await refusal(async () => verify([await keyProof(keys[0], { now: ago(30) })], { maxAgeSeconds: 20 }))).toBe(
      'invalid_proof: key proof 0 iat is too old',
    );
  });

  it('refuses a wrong nonce as invalid_nonce and a missing one as invalid_proof (§8.3.1.2)', async () => {
    expect(await refusal(async () => verify([await keyProof(keys[0], { payload: { nonce: 'another' } })]))).toBe(
      'invalid_nonce: key proof 0 nonce is not the c_nonce issued',
    );
    expect(await refusal(async () => verify([await keyProof(keys[0], { payload: { nonce: `${C_NONCE}x` } })]))).toMatch(/^invalid_nonce: /);
    expect(await refusal(async () => verify([await keyProof(keys[0], { dropPayload: ['nonce'] })]))).toBe('invalid_proof: key proof 0 has no nonce');
    expect(await refusal(async () => verify([await keyProof(keys[0], { payload: { nonce: 42 } })]))).toMatch(/^invalid_proof: /);
  });

  it('refuses another audience, an array audience, and no audience', async () => {
    expect(await refusal(async () => verify([await keyProof(keys[0], { payload: { aud: 'https://other.test.invalid/vci' } })]))).toMatch(
      /^invalid_proof: key proof 0/,
    );
    expect(await refusal(async () => verify([await keyProof(keys[0], { payload: { aud: [ISSUER, 'https://other.test.invalid'] } })]))).toBe(
      'invalid_proof: key proof 0 aud is not this credential issuer',
    );
    expect(await refusal(async () => verify([await keyProof(keys[0], { dropPayload: ['aud'] })]))).toMatch(/^invalid_proof: key proof 0/);
  });

  it('refuses a proof without jwk, with kid or x5c instead or beside it, and with a private jwk', async () => {
    expect(await refusal(async () => verify([await keyProof(keys[0], { dropHeader: ['jwk'] })]))).toBe('invalid_proof: key proof 0 header has no jwk');
    expect(await refusal(async () => verify([await keyProof(keys[0], { dropHeader: ['jwk'], header: { kid: 'did:example:1#k' } })]))).toBe(
      'invalid_proof: key proof 0 names its key with kid; only jwk is accepted',
    );
    expect(await refusal(async () => verify([await keyProof(keys[0], { header: { x5c: ['MIIB'] } })]))).toBe(
      'invalid_proof: key proof 0 names its key with x5c; only jwk is accepted',
    );
    expect(await refusal(async () => verify([await keyProof(keys[0], { header: { key_attestation: 'e.e.e' } })]))).toMatch(
      /names its key with key_attestation/,
    );
    const privateJwk = keys[0].privateKey.export({ format: 'jwk' });
    expect(await refusal(async () => verify([await keyProof(keys[0], { header: { jwk: privateJwk } })]))).toBe(
      'invalid_proof: key proof 0 jwk is not a public key',
    );
    expect(await refusal(async () => verify([await keyProof(keys[0], { header: { jwk: { kty: 'oct', k: 'c2VjcmV0' } } })]))).toBe(
      'invalid_proof: key proof 0 jwk is not a public key',
    );
    expect(await refusal(async () => verify([await keyProof(keys[0], { header: { jwk: keys[1].jwk } })]))).toMatch(/jwk is not an EC P-256 key as ES256 needs/);
  });

  it('refuses alg none, HS256, an algorithm outside the allowlist, a wrong typ, and a signature by another key', async () => {
    const good = await keyProof(keys[0]);
    // alg none: the unsecured JWS (empty signature) is no JWS here; with a signature kept, its alg is refused.
    expect(await refusal(() => verify([unsecured(good)]))).toBe('invalid_proof: key proof 0 is not a compact JWS');
    expect(await refusal(() => verify([forgeHeader(good, (h) => (h.alg = 'none'))]))).toBe(
      'invalid_proof: key proof 0 alg is not one of ES256, ES384, ES512, EdDSA',
    );
    expect(await refusal(() => verify([hs256(good)]))).toBe('invalid_proof: key proof 0 alg is not one of ES256, ES384, ES512, EdDSA');
    expect(await refusal(() => verify([forgeHeader(good, (h) => (h.alg = 'RS256'))]))).toMatch(/alg is not one of/);
    expect(await refusal(async () => verify([await keyProof(keys[0], { header: { typ: 'JWT' } })]))).toBe(
      'invalid_proof: key proof 0 typ is not openid4vci-proof+jwt',
    );
    expect(await refusal(() => verify([forgeHeader(good, (h) => (h.jwk = walletKey().jwk))]))).toMatch(/^invalid_proof: key proof 0: .*verif/i);
    expect(await refusal(() => verify([forgeHeader(good, (h) => (h.crit = ['b64']))]))).toBe('invalid_proof: key proof 0 has critical header parameters');
  });

  it('refuses a batch whose proofs share a key, however the jwk is spelled', async () => {
    const [a, b] = await Promise.all([keyProof(keys[0]), keyProof(keys[0])]);
    expect(await refusal(() => verify([a, b]))).toBe('invalid_proof: key proof 1 uses the key of an earlier proof');
    // The same key with extra members (kid, use) has the same RFC 7638 thumbprint.
    const c = await keyProof(keys[0], { header: { jwk: { ...keys[0].jwk, use: 'sig', alg: 'ES256' } } });
    expect(await refusal(() => verify([a, c]))).toBe('invalid_proof: key proof 1 uses the key of an earlier proof');
  });

  it('refuses more proofs than the batch size, none, and a proofs value that is no array', async () => {
    const many = await Promise.all(Array.from({ length: 3 }, () => keyProof(walletKey())));
    expect(await refusal(() => verify(many, { maxProofs: 2 }))).toBe('invalid_credential_request: more than 2 proofs (the batch size)');
    expect(await refusal(() => verify(many.slice(0, 2), { maxProofs: 2 }))).toBe('accepted');
    expect(await refusal(() => verify([]))).toBe('invalid_proof: proofs.jwt is not a non-empty array');
    expect(await refusal(() => verify(many[0]))).toBe('invalid_proof: proofs.jwt is not a non-empty array');
    expect(await refusal(() => verify(['x'.repeat(9000)]))).toMatch(/^invalid_proof: key proof 0 is not a string of at most/);
    expect(await refusal(() => verify([42]))).toMatch(/^invalid_proof: key proof 0 is not a string/);
  });

  it('proofNonce: the one nonce of all proofs; a missing one is invalid_proof, different ones invalid_nonce', async () => {
    const [a, b] = await Promise.all([keyProof(keys[0]), keyProof(keys[1], { payload: { nonce: 'other' } })]);
    expect(await refusal(() => proofNonce([a, b]))).toBe('invalid_nonce: the key proofs carry different nonces');
    expect(await refusal(async () => proofNonce([a, await keyProof(keys[1], { dropPayload: ['nonce'] })]))).toBe('invalid_proof: key proof 1 has no nonce');
    expect(await refusal(() => proofNonce(['not.a.jwt']))).toMatch(/^invalid_proof: key proof 0/);
    expect(await refusal(() => proofNonce([]))).toBe('invalid_proof: proofs.jwt is not a non-empty array');
  });

  /** What @openid4vc/openid4vci 0.4.6 alone lets through (the reasons for the checks above); a change here is news. */
  describe('the gaps of @openid4vc/openid4vci 0.4.6', () => {
    const issuerMetadata = {
      originalDraftVersion: Openid4vciVersion.V1,
      credentialIssuer: { credential_issuer: ISSUER, credential_endpoint: `${ISSUER}/credential`, credential_configurations_supported: {} },
      authorizationServers: [],
      knownCredentialConfigurations: {},
    } as unknown as IssuerMetadataResult;
    const library = new Openid4vciIssuer({
      callbacks: {
        // Signature accepted: the gaps shown are about the claims, not the signature.
        verifyJwt: (signer) => ({ verified: true, signerJwk: (signer as unknown as { publicJwk: never }).publicJwk }),
        hash: (data) => new Uint8Array(createHash('sha256').update(data).digest()),
        generateRandom: () => new Uint8Array(32),
        signJwt: () => Promise.reject(new Error('unused')),
        clientAuthentication: () => undefined,
      },
    });
    const libraryAccepts = async (jwt: string, expectedNonce?: string) => {
      await library.verifyCredentialRequestJwtProof({ issuerMetadata, jwt, now, expectedNonce });
      return true;
    };

    it('accepts a stale iat, no nonce when given no expected nonce, an array aud; we refuse each', async () => {
      const stale = await keyProof(keys[0], { now: ago(86_400) });
      expect(await libraryAccepts(stale, C_NONCE)).toBe(true);
      expect(await refusal(() => verify([stale]))).toMatch(/iat is too old/);
      const noNonce = await keyProof(keys[0], { dropPayload: ['nonce'] });
      expect(await libraryAccepts(noNonce)).toBe(true);
      expect(await refusal(() => verify([noNonce]))).toMatch(/has no nonce/);
      const arrayAud = await keyProof(keys[0], { payload: { aud: [ISSUER, 'https://other.test.invalid'] } });
      expect(await libraryAccepts(arrayAud, C_NONCE)).toBe(true);
    });

    it('checks one proof at a time and keeps no state: the same key twice passes it twice; we refuse the batch', async () => {
      const [a, b] = await Promise.all([keyProof(keys[0]), keyProof(keys[0])]);
      expect((await libraryAccepts(a, C_NONCE)) && (await libraryAccepts(b, C_NONCE))).toBe(true);
      expect(await refusal(() => verify([a, b]))).toMatch(/uses the key of an earlier proof/);
    });

    it('writes error messages over several lines; oneLine makes a header-safe line of them', () => {
      let message = '';
      try {
        jwtSignerFromJwt({ header: { alg: 'ES256', trust_chain: ['a'] } as never, payload: {} as never });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/\n/);
      expect(oneLine(message)).not.toMatch(/[\r\n"\\]/);
      expect(oneLine('a\r\nWWW-Authenticate: x "y" \\z')).toBe("a WWW-Authenticate: x 'y' /z");
    });
  });
});
